#!/usr/bin/env python3
"""Positions of arena games in which the opponent saw a forced win, as threat puzzles.

Reads `arbor match --jsonl` files, replays every game the opponent won, and shows each
position with the opponent to move to the opponent itself (a Gomocup brain, BOARD, a
fresh process each time). The first position in which it announces a win (Rapfi's
`Eval +M<n>`, Wine's `VCF success` / `VCT success`) becomes one line of
`arbor puzzles` format, with the move it chose as the listed first move:

    python3 scripts/announced-wins.py --opponent wine --brain /path/to/pbrain-wine \
        --movetime 1000 --out wins-wine.txt games.jsonl
    arbor puzzles wins-wine.txt --movetime 2000
"""

import argparse
import json
import os
import re
import sys

from gomocup_brain import ask, name, parse

ANNOUNCED = re.compile(r"Eval \+M\d+|VC[FT] success")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("jsonl", nargs="+")
    parser.add_argument("--opponent", required=True, help="its engine name in the match")
    parser.add_argument("--brain", required=True, help="its Gomocup command")
    parser.add_argument("--movetime", type=int, default=1000)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    found = 0
    with open(args.out, "w") as out:
        for path in args.jsonl:
            for record in map(json.loads, open(path)):
                rules = record["match"]["game"]
                size = int(re.search(r"size=(\d+)", rules).group(1))
                # arbor puzzles sets up freestyle boards named by letters.
                if "rule=freestyle" not in rules or size > 26:
                    sys.exit(f"{path}: only freestyle boards up to 26 wide, not {rules}")
                for game in record.get("games", []):
                    winner = {"1-0": "black", "0-1": "white"}.get(game["result"])
                    if winner is None or game[winner] != args.opponent:
                        continue
                    moves = [parse(m) for m in game["setup"]["moves"] + game["moves"]]
                    for ply in range(len(game["setup"]["moves"]), len(moves)):
                        if ("black", "white")[ply % 2] != winner:
                            continue
                        stones = [(x, y, ("black", "white")[i % 2])
                                  for i, (x, y) in enumerate(moves[:ply])]
                        move, printed = ask(args.brain, size, args.movetime, stones, winner)
                        announced = any(ANNOUNCED.search(line) for line in printed)
                        taken = {(x, y) for x, y, _ in stones}
                        if (not announced or move is None or move in taken
                                or not all(0 <= c < size for c in move)):
                            continue
                        cells = {side: ",".join(name(x, y) for x, y, s in stones if s == side)
                                 for side in ("black", "white")}
                        out.write(f"{size} {winner} B:{cells['black']} W:{cells['white']} ; "
                                  f"{name(*move)} ; - ; {os.path.basename(path)}#game{game['number']}"
                                  f"-ply{ply}\n")
                        out.flush()
                        found += 1
                        break
    print(f"{found} positions with an announced win", file=sys.stderr)


if __name__ == "__main__":
    main()
