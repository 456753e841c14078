#!/usr/bin/env python3
"""Balanced five-in-a-row openings, judged by a Gomocup brain.

Random stones near the centre (Black first, alternating) are shown to the judge with
BOARD; a position is kept when the judge's evaluation (the `Eval` of its MESSAGE lines,
as Rapfi prints it) is within --max-eval of even, and neither side has three in a row.
Writes the `x,y` file `arbor match --openings` reads and the offset file c-gomoku-cli
reads (`-openings type=offset`).

    python3 scripts/gomoku-openings.py --judge /path/to/pbrain-rapfi \
        --count 20 --seed 1 --out scripts/openings/gomoku-balanced20
"""

import argparse
import os
import random
import re
import select
import signal
import subprocess
import sys

EVAL = re.compile(r"\bEval (-?\d+)")
MOVE = re.compile(r"^-?\d+,-?\d+$")


class Silent(Exception):
    """The judge stopped answering."""


class Judge:
    def __init__(self, command, size, movetime):
        self.proc = subprocess.Popen(
            command, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, start_new_session=True)
        self.pending = b""
        try:
            self.send(f"START {size}")
            self.read_until(lambda line: line == "OK")
            self.send(f"INFO timeout_turn {movetime}")
            self.send("INFO timeout_match 600000")
        except (Silent, OSError):
            self.close()
            raise

    def send(self, line):
        self.proc.stdin.write((line + "\n").encode())
        self.proc.stdin.flush()

    def read_until(self, done, timeout=30):
        """Lines up to the first `done` accepts; gives up after `timeout` s of silence."""
        seen = []
        while True:
            while b"\n" not in self.pending:
                ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
                if not ready:
                    raise Silent(f"the judge said nothing for {timeout} s after {seen[-3:]}")
                chunk = os.read(self.proc.stdout.fileno(), 65536)
                if not chunk:
                    raise Silent("the judge quit")
                self.pending += chunk
            raw, self.pending = self.pending.split(b"\n", 1)
            line = raw.decode(errors="replace").strip()
            seen.append(line)
            if done(line):
                return seen

    def evaluate(self, moves):
        """The judge's last evaluation for the side to move after `moves`."""
        to_move = len(moves) % 2
        self.send("BOARD")
        for i, (x, y) in enumerate(moves):
            self.send(f"{x},{y},{1 if i % 2 == to_move else 2}")
        self.send("DONE")
        lines = self.read_until(lambda line: MOVE.match(line) is not None)
        evals = [int(m.group(1)) for line in lines for m in [EVAL.search(line)] if m]
        return evals[-1] if evals else None

    def close(self):
        try:
            self.send("END")
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            pass
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()


def longest_run(stones, x, y):
    best = 1
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            step = 1
            while (x + sign * step * dx, y + sign * step * dy) in stones:
                run += 1
                step += 1
        best = max(best, run)
    return best


def random_opening(rng, size, stones, radius):
    centre = size // 2
    moves = []
    taken = [set(), set()]
    while len(moves) < stones:
        x = centre + rng.randint(-radius, radius)
        y = centre + rng.randint(-radius, radius)
        if any((x, y) in side for side in taken):
            continue
        side = len(moves) % 2
        if longest_run(taken[side] | {(x, y)}, x, y) >= 3:
            continue
        taken[side].add((x, y))
        moves.append((x, y))
    return moves


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--judge", required=True, help="Gomocup brain command")
    parser.add_argument("--size", type=int, default=15)
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--stones", default="3,4,5", help="stone counts to draw from")
    parser.add_argument("--radius", type=int, default=3, help="how far from the centre")
    parser.add_argument("--movetime", type=int, default=1000, help="judge ms a position")
    parser.add_argument("--max-eval", type=int, default=40)
    parser.add_argument("--out", required=True, help="path prefix: PREFIX.txt, PREFIX-offsets.txt")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    counts = [int(n) for n in args.stones.split(",")]
    kept, tried, seen = 0, 0, set()
    centre = args.size // 2
    # Written as found: an interrupted run keeps what it has.
    with open(args.out + ".txt", "w") as moves_out, \
            open(args.out + "-offsets.txt", "w") as offsets_out:
        while kept < args.count:
            moves = random_opening(rng, args.size, rng.choice(counts), args.radius)
            key = tuple(sorted(moves[0::2])), tuple(sorted(moves[1::2]))
            if key in seen:
                continue
            seen.add(key)
            tried += 1
            # A fresh judge each time: one process reused across BOARDs here sometimes
            # stopped answering.
            try:
                judge = Judge(args.judge, args.size, args.movetime)
                try:
                    value = judge.evaluate(moves)
                finally:
                    judge.close()
            except (Silent, OSError) as error:
                print(f"skipped: {error}", file=sys.stderr)
                value = None
            if value is None or abs(value) > args.max_eval:
                continue
            kept += 1
            moves_out.write(" ".join(f"{x},{y}" for x, y in moves) + "\n")
            offsets_out.write(", ".join(f"{x - centre},{y - centre}" for x, y in moves) + "\n")
            moves_out.flush()
            offsets_out.flush()
            print(f"kept {kept}/{tried}: {' '.join(f'{x},{y}' for x, y in moves)} "
                  f"eval {value}", file=sys.stderr)
    print(f"{kept} of {tried} positions kept", file=sys.stderr)


if __name__ == "__main__":
    main()
