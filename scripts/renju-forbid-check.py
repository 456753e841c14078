#!/usr/bin/env python3
"""Renju forbidden points: arbor against another Gomocup brain (Rapfi), position by position.

Both brains get the same positions as `YXBOARD` blocks (Black to move, stones in playing
order, Black's as field 1) and answer `YXSHOWFORBID`; the script counts the positions
where the two lists of forbidden points agree and prints the ones where they do not.

    scripts/renju-forbid-check.py --arbor "target/release/arbor gomocup" \\
        --other /path/to/pbrain-rapfi --positions 10000 --seed 1

The other brain is run in its own directory (Rapfi reads config.toml and its model from
there). Positions: crafted cases from renju literature, random dense clusters around the
centre (Black's stones drawn towards Black's lines, so threes and fours are common), and
positions from random renju games played with arbor's own legal moves. None has a five
or an overline on the board.
"""

import argparse
import os
import random
import shlex
import subprocess
import sys

SIZE = 15
DIRS = [(1, 0), (0, 1), (1, 1), (1, -1)]


class Brain:
    def __init__(self, command, name):
        self.name = name
        args = shlex.split(command)
        cwd = os.path.dirname(os.path.abspath(args[0])) if os.path.sep in args[0] else None
        self.proc = subprocess.Popen(args, cwd=cwd, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, bufsize=1)
        self.send(f"START {SIZE}")
        self.expect("OK")
        self.send("INFO rule 4")

    def send(self, line):
        self.proc.stdin.write(line + "\n")

    def read(self):
        line = self.proc.stdout.readline()
        if not line:
            sys.exit(f"{self.name} closed its output")
        return line.strip()

    def expect(self, prefix):
        self.proc.stdin.flush()
        while True:
            line = self.read()
            if line.startswith(prefix):
                return line
            if line.startswith(("ERROR", "UNKNOWN")):
                sys.exit(f"{self.name}: {line}")

    def forbidden(self, stones):
        """The forbidden points (x, y) of a position given as [(x, y, black)] in order."""
        self.send("YXBOARD")
        for x, y, black in stones:
            self.send(f"{x},{y},{1 if black else 2}")
        self.send("DONE")
        self.send("YXSHOWFORBID")
        line = self.expect("FORBID")
        digits = line[len("FORBID"):].strip().rstrip(".")
        return sorted((int(digits[i:i + 2]), int(digits[i + 2:i + 4]))
                      for i in range(0, len(digits), 4))

    def close(self):
        try:
            self.send("END")
            self.proc.stdin.flush()
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()


def runs(board, x, y, colour):
    """Longest run of `colour` through (x, y) over the four directions, (x, y) counted."""
    best = 0
    for dx, dy in DIRS:
        n = 1
        for sign in (1, -1):
            a, b = x + sign * dx, y + sign * dy
            while 0 <= a < SIZE and 0 <= b < SIZE and board.get((a, b)) == colour:
                n += 1
                a, b = a + sign * dx, b + sign * dy
        best = max(best, n)
    return best


def exact_run(board, x, y):
    """Whether a black stone on the empty (x, y) makes exactly five in some line."""
    for dx, dy in DIRS:
        n = 1
        for sign in (1, -1):
            a, b = x + sign * dx, y + sign * dy
            while 0 <= a < SIZE and 0 <= b < SIZE and board.get((a, b)) == 1:
                n += 1
                a, b = a + sign * dx, b + sign * dy
        if n == 5:
            return True
    return False


def line_window(board, x, y, dx, dy):
    """The 11 cells along a line centred on (x, y): 0 empty, 1 black, 2 white or wall."""
    cells = []
    for i in range(-5, 6):
        a, b = x + i * dx, y + i * dy
        cells.append(board.get((a, b), 0) if 0 <= a < SIZE and 0 <= b < SIZE else 2)
    return cells


def run_at(cells, at):
    start = end = at
    while start > 0 and cells[start - 1] == 1:
        start -= 1
    while end < 10 and cells[end + 1] == 1:
        end += 1
    return (11 if start == 0 or end == 10 else end - start + 1), start, end


def forbidden_py(board, x, y, five_counts=True):
    """A second, plain judgement of Black's stone on the empty (x, y): overline, double
    four or double three, recursively. `five_counts=False` does not count a three whose
    straight-four point also makes five in another line (how Rapfi judges)."""
    board[(x, y)] = 1
    try:
        fours, three_points, overline = 0, [], False
        for dx, dy in DIRS:
            cells = line_window(board, x, y, dx, dy)
            length = run_at(cells, 5)[0]
            if length == 5:
                return False
            if length > 5:
                overline = True
                continue
            fives = []
            for q in range(1, 10):
                if cells[q] == 0:
                    cells[q] = 1
                    if run_at(cells, 5)[0] == 5:
                        fives.append(q)
                    cells[q] = 0
            count = len(fives) - sum(1 for q in fives if q + 5 in fives)
            fours += count
            if count:
                continue
            points = []
            for q in range(1, 10):
                if cells[q] != 0:
                    continue
                cells[q] = 1
                length, start, end = run_at(cells, 5)
                if (length == 4 and start <= q <= end and cells[start - 1] == 0
                        and cells[end + 1] == 0 and cells[start - 2] != 1
                        and cells[end + 2] != 1):
                    points.append((x + (q - 5) * dx, y + (q - 5) * dy))
                cells[q] = 0
            if points:
                three_points.append(points)
        if overline or fours >= 2:
            return True
        if len(three_points) < 2:
            return False
        real = 0
        for points in three_points:
            for qx, qy in points:
                if not five_counts and exact_run(board, qx, qy):
                    continue
                if not forbidden_py(board, qx, qy, five_counts):
                    real += 1
                    break
        return real >= 2
    finally:
        del board[(x, y)]


def forbidden_list(order, five_counts):
    board = {(x, y): 1 if black else 2 for x, y, black in order}
    return sorted((x, y) for x in range(SIZE) for y in range(SIZE)
                  if (x, y) not in board and forbidden_py(board, x, y, five_counts))


def black_has_five(order):
    """Whether Black, to move, can make five at once."""
    board = {(x, y): 1 if black else 2 for x, y, black in order}
    return any(exact_run(board, x, y) for x in range(SIZE) for y in range(SIZE)
               if (x, y) not in board)


def no_line(board):
    return all(runs(board, x, y, c) < 5 for (x, y), c in board.items())


def interleave(black, white):
    """Stones in playing order: black, white, black, ... (equal counts)."""
    order = []
    for b, w in zip(black, white):
        order.append((*b, True))
        order.append((*w, False))
    return order


def cluster(rng):
    """A dense random cluster: Black's stones often extend Black's lines."""
    radius = rng.choice([3, 4, 5])
    count = rng.randint(4, 2 * radius * radius // 2 + 4)
    lo, hi = SIZE // 2 - radius, SIZE // 2 + radius
    board = {}
    black, white = [], []
    for i in range(2 * count):
        colour = 1 if i % 2 == 0 else 2
        for _ in range(50):
            if colour == 1 and black and rng.random() < 0.7:
                x0, y0 = rng.choice(black)
                dx, dy = rng.choice(DIRS)
                step = rng.choice([-3, -2, -1, 1, 2, 3])
                x, y = x0 + step * dx, y0 + step * dy
            else:
                x, y = rng.randint(lo, hi), rng.randint(lo, hi)
            if not (0 <= x < SIZE and 0 <= y < SIZE) or (x, y) in board:
                continue
            if runs(board, x, y, colour) >= 5:
                continue
            board[(x, y)] = colour
            (black if colour == 1 else white).append((x, y))
            break
        else:
            return None
    return interleave(black, white) if no_line(board) else None


def crafted():
    """Renju literature's cases (arbor's named tests), as (black, white) stone lists."""
    col = {c: i for i, c in enumerate("abcdefghijklmno")}

    def p(names):
        return [(col[n[0]], int(n[1:]) - 1) for n in names]

    cases = [
        (["e8", "f8", "g8", "i8", "j8"], ["a1", "a3", "a5", "a7", "a9"]),
        (["f8", "g8", "i8", "j8", "h5", "h6", "h7", "e5", "f6", "g7"],
         ["a1", "a3", "a5", "a7", "c1", "c3", "c5", "c7", "e1", "e3"]),
        (["e8", "f8", "g8", "h5", "h6", "h7"], ["d8", "h4", "a1", "a3", "a5", "a7"]),
        (["e8", "g8", "i8", "k8"], ["a1", "a3", "a5", "a7"]),
        (["d8", "e8", "h8", "j8", "k8"], ["a1", "a3", "a5", "a7", "a9"]),
        (["e8", "f8", "g8", "k8", "l8", "m8"], ["a1", "a3", "a5", "a7", "a9", "a11"]),
        (["e8", "f8", "g8", "h6", "h7"], ["d8", "a1", "a3", "a5", "a7"]),
        (["f8", "g8", "h6", "h7"], ["a1", "a3", "a5", "a7"]),
        (["f8", "i8", "h6", "h7"], ["a1", "a3", "a5", "a7"]),
        (["f8", "g8", "h6", "h7"], ["h5", "h9", "a1", "a3"]),
        (["f8", "g8", "h6", "h7", "e9", "f9", "g9", "i9", "j9"],
         ["h4", "a1", "a3", "a5", "a7", "a9", "a11", "a13", "c1"]),
        (["f8", "g8", "h6", "h7", "e9", "f9", "g9", "i9"],
         ["h4", "a1", "a3", "a5", "a7", "a9", "a11", "a13"]),
        (["f8", "g8", "h6", "h7", "e9", "f9", "g9"],
         ["h4", "d9", "a1", "a3", "a5", "a7", "a9"]),
    ]
    for black, white in cases:
        yield interleave(p(black), p(white))


def game_positions(rng, arbor):
    """Positions of a random renju game: each Black move avoids the points arbor
    calls forbidden (the other brain judges them afresh)."""
    board, black, white = {}, [], []
    positions = []
    forbidden = []
    for ply in range(rng.randint(20, 90)):
        colour = 1 if ply % 2 == 0 else 2
        near = [(x, y) for x in range(SIZE) for y in range(SIZE) if (x, y) not in board
                and any((x + a, y + b) in board for a in range(-2, 3) for b in range(-2, 3))]
        if not near:
            near = [(SIZE // 2, SIZE // 2)]
        choices = [q for q in near if colour == 2 or q not in forbidden]
        rng.shuffle(choices)
        for q in choices:
            if runs(board, q[0], q[1], colour) < 5:
                break
        else:
            break
        board[q] = colour
        (black if colour == 1 else white).append(q)
        if colour == 2:
            order = interleave(black, white)
            forbidden = arbor.forbidden(order)
            positions.append((order, forbidden))
    return positions


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--arbor", default="target/release/arbor gomocup")
    parser.add_argument("--other", required=True, help="the other brain's command")
    parser.add_argument("--positions", type=int, default=10000)
    parser.add_argument("--games", type=float, default=0.5,
                        help="share of positions from random games (the rest clusters)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", type=int, default=10, help="disagreements to print")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    arbor, other = Brain(args.arbor, "arbor"), Brain(args.other, "other")
    total = agree = with_forbidden = points = shown = 0
    # Disagreements where Black can make five at once, and the rest.
    with_five = [0, 0]
    other_cases = [0, 0]
    # Disagreements the one rule difference explains: the plain judgement gives arbor's
    # answer, and the same judgement not counting a three whose four point also makes
    # five gives the other brain's.
    explained = 0

    def judge(order, mine=None):
        nonlocal total, agree, with_forbidden, points, shown, explained
        mine = arbor.forbidden(order) if mine is None else mine
        theirs = other.forbidden(order)
        total += 1
        with_forbidden += bool(mine or theirs)
        points += len(theirs)
        five = black_has_five(order)
        (with_five if five else other_cases)[0] += 1
        if mine == theirs:
            agree += 1
            return
        (with_five if five else other_cases)[1] += 1
        if (forbidden_list(order, True) == mine
                and forbidden_list(order, False) == theirs):
            explained += 1
            return
        if shown < args.show:
            shown += 1
            stones = " ".join(f"{x},{y},{'B' if b else 'W'}" for x, y, b in order)
            print(f"disagree ({'black has a five' if five else 'no black five'}): "
                  f"arbor {mine} other {theirs}\n  {stones}", flush=True)

    for order in crafted():
        judge(order)
    games_wanted = int(args.positions * args.games)
    while total < games_wanted:
        for order, mine in game_positions(rng, arbor):
            judge(order, mine)
    while total < args.positions:
        order = cluster(rng)
        if order:
            judge(order)
    arbor.close()
    other.close()
    print(f"positions {total}, agree {agree} ({100 * agree / total:.2f}%), "
          f"with forbidden points {with_forbidden}, forbidden points (other) {points}")
    print(f"  Black cannot make five at once: {other_cases[0]} positions, "
          f"{other_cases[1]} disagreements")
    print(f"  Black can make five at once: {with_five[0]} positions, "
          f"{with_five[1]} disagreements")
    print(f"  disagreements explained by the three-whose-four-point-makes-five difference: "
          f"{explained} of {total - agree}")
    return 0 if agree == total else 1


if __name__ == "__main__":
    sys.exit(main())
