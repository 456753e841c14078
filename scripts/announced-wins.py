#!/usr/bin/env python3
"""Positions of arena games in which the opponent saw a forced win, as threat puzzles.

Reads `arbor match --jsonl` files or c-gomoku-cli's SGF files (`-sgf`; the engine names
are its `-engine name=`s), replays every game the opponent won, and shows each
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
    parser.add_argument("records", nargs="+", help="`arbor match --jsonl` or c-gomoku-cli SGF files")
    parser.add_argument("--opponent", required=True, help="its engine name in the match")
    parser.add_argument("--brain", required=True, help="its Gomocup command")
    parser.add_argument("--movetime", type=int, default=1000)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    found = 0
    with open(args.out, "w") as out:
        for path in args.records:
            for size, winner, moves, opening, tag in games(path, args.opponent):
                for ply in range(opening, len(moves)):
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
                              f"{name(*move)} ; - ; {os.path.basename(path)}#{tag}-ply{ply}\n")
                    out.flush()
                    found += 1
                    break
    print(f"{found} positions with an announced win", file=sys.stderr)


def games(path, opponent):
    """The games `opponent` won in a record file: (size, winner, moves as (x, y), how
    many of them were the opening, tag)."""
    text = open(path).read()
    if text.lstrip().startswith("(;"):
        yield from sgf_games(path, text, opponent)
        return
    for record in map(json.loads, text.splitlines()):
        rules = record["match"]["game"]
        size = int(re.search(r"size=(\d+)", rules).group(1))
        # arbor puzzles sets up freestyle boards named by letters.
        if "rule=freestyle" not in rules or size > 26:
            sys.exit(f"{path}: only freestyle boards up to 26 wide, not {rules}")
        for game in record.get("games", []):
            winner = {"1-0": "black", "0-1": "white"}.get(game["result"])
            if winner is None or game[winner] != opponent:
                continue
            moves = [parse(m) for m in game["setup"]["moves"] + game["moves"]]
            yield size, winner, moves, len(game["setup"]["moves"]), f"game{game['number']}"


def sgf_games(path, text, opponent):
    """c-gomoku-cli's games: `RU[0]` is freestyle, moves are letters column first, the
    opening's carry the comment `opening move`."""
    for game in text.split("(;")[1:]:
        def prop(key):
            found = re.search(key + r"\[([^\]]*)\]", game)
            return found and found.group(1)

        size, rule = int(prop("SZ")), prop("RU")
        if rule != "0" or size > 26:
            sys.exit(f"{path}: only freestyle (RU[0]) boards up to 26 wide")
        winner = {"B+": "black", "W+": "white"}.get((prop("RE") or "")[:2])
        if winner is None or prop("P" + winner[0].upper()) != opponent:
            continue
        played = re.findall(r";[BW]\[([a-z])([a-z])\](C\[([^\]]*)\])?", game)
        moves = [(ord(x) - ord("a"), ord(y) - ord("a")) for x, y, _, _ in played]
        opening = sum(1 for _, _, _, comment in played if comment == "opening move")
        yield size, winner, moves, opening, f"game{prop('GN')}"


if __name__ == "__main__":
    main()
