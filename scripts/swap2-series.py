#!/usr/bin/env python3
"""A Swap2 series between two Gomocup brains, the script as manager and referee.

Each game starts from an empty board with the Gomocup Swap2 extension: the first player
(`SWAP2BOARD` with no stones) places three stones, the second chooses (`SWAP`, White's
fourth stone, or two more stones), and after two more stones the first chooses (`SWAP` or
White's sixth stone). Then the game is played out with `BOARD` and `TURN`; the players
alternate as first player game by game. Five in a row wins (`--rule 1`: exactly five,
Gomocup's Swap2 rule; `--rule 0`: five or more).

    scripts/swap2-series.py --games 10 --movetime 500 \\
        "target/release/arbor gomocup" /path/to/pbrain-rapfi

Prints each game's opening decisions and result, then the score of the first brain.

`arbor match --game gomoku --opening swap2` plays such series too, with arbor's rules
(renju's forbidden points included), clocks, records and statistics, and with native
arbor engines as well as Gomocup brains (docs/matches.md).
"""

import argparse
import shlex
import subprocess
import sys

SIZE = 15


class Brain:
    def __init__(self, command, name, args):
        self.name = name
        self.proc = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, bufsize=1)
        self.args = args

    def send(self, *lines):
        for line in lines:
            if self.args.verbose:
                print(f"  -> {self.name}: {line}", file=sys.stderr)
            self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def answer(self):
        """The next line that is not a MESSAGE or DEBUG line."""
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"{self.name} closed its output")
            line = line.strip()
            if self.args.verbose and not line.startswith("MESSAGE"):
                print(f"  <- {self.name}: {line}", file=sys.stderr)
            if line and not line.startswith(("MESSAGE", "DEBUG")):
                return line

    def start(self):
        self.send(f"START {SIZE}")
        reply = self.answer()
        if reply != "OK":
            raise RuntimeError(f"{self.name}: START got {reply}")
        self.send(f"INFO rule {self.args.rule}", f"INFO timeout_turn {self.args.movetime}",
                  "INFO timeout_match 0", "INFO max_memory 367001600")

    def close(self):
        try:
            self.send("END")
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()


def points(reply):
    out = []
    for word in reply.split():
        x, y = word.split(",")
        out.append((int(x), int(y)))
    return out


def five(board, x, y, exact):
    colour = board[(x, y)]
    for dx, dy in [(1, 0), (0, 1), (1, 1), (1, -1)]:
        n = 1
        for sign in (1, -1):
            a, b = x + sign * dx, y + sign * dy
            while board.get((a, b)) == colour:
                n += 1
                a, b = a + sign * dx, b + sign * dy
        if n == 5 or (n > 5 and not exact):
            return True
    return False


def swap2_board(brain, stones):
    """SWAP2BOARD with `stones` in playing order (black as field 1, white as 2)."""
    lines = ["SWAP2BOARD"]
    lines += [f"{x},{y},{1 if i % 2 == 0 else 2}" for i, (x, y) in enumerate(stones)]
    brain.send(*lines, "DONE")
    return brain.answer()


def play(first, second, args):
    """One game; returns (winner brain or None, opening text)."""
    for brain in (first, second):
        brain.start()
    stones = points(swap2_board(first, []))
    if len(stones) != 3:
        raise RuntimeError(f"{first.name}: three stones expected")
    decision = swap2_board(second, stones)
    notes = [f"{first.name} opens {stones}", f"{second.name}: {decision}"]
    if decision == "SWAP":
        black, white = second, first
    else:
        added = points(decision)
        stones += added
        if len(added) == 1:
            black, white = first, second
        else:
            decision = swap2_board(first, stones)
            notes.append(f"{first.name}: {decision}")
            if decision == "SWAP":
                black, white = first, second
            else:
                stones += points(decision)
                black, white = second, first
    board = {}
    for i, (x, y) in enumerate(stones):
        board[(x, y)] = i % 2
    # Whoever moves next gets the position as BOARD; from then on TURN.
    to_move = len(stones) % 2
    players = [black, white]
    mover = players[to_move]
    own = to_move
    lines = ["BOARD"] + [f"{x},{y},{1 if c == own else 2}" for (x, y), c in board.items()]
    mover.send(*lines, "DONE")
    other = players[1 - to_move]
    # The other side learns the position when it first moves (BOARD too).
    other_needs_board = True
    exact = args.rule == 1
    while len(board) < SIZE * SIZE:
        reply = mover.answer()
        try:
            (x, y), = points(reply)
        except ValueError:
            # Not a move (an error line): the game is void, not won.
            return "void", notes + [f"{mover.name} answered {reply!r}"]
        if (x, y) in board or not (0 <= x < SIZE and 0 <= y < SIZE):
            return players[1 - to_move], notes + [f"{mover.name} played {x},{y} illegally"]
        board[(x, y)] = to_move
        if five(board, x, y, exact):
            return mover, notes + [f"{len(board)} stones"]
        to_move = 1 - to_move
        mover, other = other, mover
        if other_needs_board:
            lines = ["BOARD"] + [f"{a},{b},{1 if c == to_move else 2}"
                                 for (a, b), c in board.items()]
            mover.send(*lines, "DONE")
            other_needs_board = False
        else:
            mover.send(f"TURN {x},{y}")
    return None, notes + ["board full"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--movetime", type=int, default=500)
    parser.add_argument("--rule", type=int, default=1, choices=[0, 1])
    parser.add_argument("--verbose", action="store_true", help="print the exchanges")
    args = parser.parse_args()
    a = Brain(args.first, "A", args)
    b = Brain(args.second, "B", args)
    score, played, void = 0.0, 0, 0
    for game in range(args.games):
        first, second = (a, b) if game % 2 == 0 else (b, a)
        winner, notes = play(first, second, args)
        if winner == "void":
            void += 1
            name = "void"
        else:
            played += 1
            score += 1.0 if winner is a else 0.5 if winner is None else 0.0
            name = winner.name if winner else "none"
        print(f"game {game + 1}: {'; '.join(notes)}; winner {name}", flush=True)
    a.close()
    b.close()
    print(f"A ({args.first}) scored {score} of {played} ({void} void)")


if __name__ == "__main__":
    sys.exit(main())
