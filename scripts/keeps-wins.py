#!/usr/bin/env python3
"""Whether arbor's move keeps a forced win, judged by Rapfi.

For each line of an `arbor puzzles` file (as `scripts/announced-wins.py` writes them: the
attacker to move in a position where an opponent announced a forced win), asks a Gomocup
brain (arbor) for its move within `--movetime`, then shows the position after that move
to Rapfi with the defender to move. The move keeps the win when Rapfi, thinking for
`--judge-movetime`, ends on its own loss (its last `Eval` is `-M<n>`). This counts what `arbor
puzzles` does not: wins the search plays into without having proved them yet. Rapfi can
miss a loss it has, so the count is a lower bound.

    python3 scripts/keeps-wins.py wins-rapfi.txt --brain "target/release/arbor gomocup" \
        --judge /path/to/pbrain-rapfi --movetime 2000 --judge-movetime 1000
"""

import argparse
import re
import subprocess
import sys

EVAL = re.compile(r"Eval (\S+)")
MOVE = re.compile(r"^(\d+),(\d+)$")


def cells(text):
    return [(ord(name[0]) - ord("a"), int(name[1:]) - 1) for name in text.split(",") if name]


def ask(brain, size, movetime, own, other):
    """The brain's move (own stones are the side to move's) and its output lines."""
    lines = [f"START {size}", f"INFO timeout_turn {movetime}", "INFO timeout_match 600000",
             "BOARD"]
    lines += [f"{x},{y},1" for x, y in own] + [f"{x},{y},2" for x, y in other] + ["DONE"]
    proc = subprocess.Popen(brain, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    proc.stdin.write("\n".join(lines) + "\n")
    proc.stdin.flush()
    seen, move = [], None
    for line in proc.stdout:
        line = line.strip()
        seen.append(line)
        found = MOVE.match(line)
        if found:
            move = (int(found.group(1)), int(found.group(2)))
            break
    proc.kill()
    proc.wait()
    return move, seen


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("puzzles")
    parser.add_argument("--brain", required=True, help="arbor's Gomocup command")
    parser.add_argument("--judge", required=True, help="Rapfi's Gomocup command")
    parser.add_argument("--movetime", type=int, default=2000)
    parser.add_argument("--judge-movetime", type=int, default=1000)
    args = parser.parse_args()

    kept = total = 0
    for line in open(args.puzzles):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.strip().split(" ; ")
        size, side, black, white = fields[0].split()
        size = int(size)
        black, white = cells(black[2:]), cells(white[2:])
        attacker, defender = (black, white) if side == "black" else (white, black)
        move, _ = ask(args.brain, size, args.movetime, attacker, defender)
        total += 1
        if move is None or move in attacker + defender:
            print(f"{fields[-1]}: no legal move", flush=True)
            continue
        _, judged = ask(args.judge, size, args.judge_movetime, defender, attacker + [move])
        evals = [found.group(1) for found in map(EVAL.search, judged) if found]
        lost = bool(evals) and evals[-1].startswith("-M")
        kept += lost
        print(f"{fields[-1]}: {move[0]},{move[1]} {'keeps the win' if lost else '-'}",
              flush=True)
    print(f"{kept} of {total} moves keep the win", file=sys.stderr)


if __name__ == "__main__":
    main()
