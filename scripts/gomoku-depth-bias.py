#!/usr/bin/env python3
"""How much a Gomoku search's odd depths score above its even ones.

From each opening of a file (`x,y` moves, Black first, as in
`scripts/openings/gomoku-balanced20.txt`), arbor plays on at `go depth 3` and, after
each count of extra plies given, reports its scores at depths 1 to 5 (`go depth 5`).
Prints the mean of (odd depth's score - even depth's) over consecutive depths and the
median swing between them: what `odd_and_even_depths_score_alike` bounds on its own
few positions, here on others, to set the tempo after a fit (docs/gomoku.md).

    python3 scripts/gomoku-depth-bias.py target/release/arbor \\
        scripts/openings/gomoku-balanced20.txt --plies 4 8
"""

import argparse
import re
import subprocess
import statistics

SCORE = re.compile(r"^info depth (\d+) score ([+-]?\d+) ")


def run(binary, commands):
    """Sends each command after the reply to the one before: output lines."""
    proc = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True)
    seen = []
    for command in commands:
        proc.stdin.write(command + "\n")
        proc.stdin.flush()
        for line in proc.stdout:
            line = line.strip()
            seen.append(line)
            if line.startswith("=") or line.startswith("?"):
                break
    proc.stdin.write("quit\n")
    proc.stdin.close()
    proc.wait()
    return seen


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary")
    parser.add_argument("openings")
    parser.add_argument("--plies", type=int, nargs="+", default=[4, 8])
    parser.add_argument("--depth", type=int, default=5)
    args = parser.parse_args()
    diffs, swings, positions = [], [], 0
    for line in open(args.openings):
        opening = line.split()
        if not opening:
            continue
        for plies in args.plies:
            commands = ["newgame gomoku opening=free"] + [f"move {m}" for m in opening]
            commands += ["go depth 3"] * plies + [f"go depth {args.depth}"]
            scores = {}
            for out in run(args.binary, commands):
                found = SCORE.match(out)
                if found:
                    scores[int(found.group(1))] = int(found.group(2))
            last = [scores.get(d) for d in range(1, args.depth + 1)]
            if None in last or any(abs(s) >= 50_000 for s in last):
                continue  # a won or lost position, or a report cut short
            positions += 1
            for depth in range(1, args.depth):
                a, b = last[depth - 1], last[depth]
                diffs.append(a - b if depth % 2 == 1 else b - a)
                swings.append(abs(a - b))
    print(f"{positions} quiet positions: odd minus even {statistics.mean(diffs):+.0f}, "
          f"median swing {statistics.median(swings):.0f}")


if __name__ == "__main__":
    main()
