#!/usr/bin/env python3
"""How a stronger Gomocup brain judges one engine's moves in match records.

Replays the games of `arbor match --jsonl` files and, in every position where ENGINE
moved (every `--every`th one), asks the judge (a fresh process each time, BOARD) for its
own move there; where the two differ, it asks for the judge's evaluation after each of
the two moves. The judge must print Rapfi-style `MESSAGE ... Eval <n>` lines (`+M<n>` /
`-M<n>` for mates, counted as +-20000). Prints a JSON line per position and a summary:
how often the engine chose the judge's move, the median loss of its other moves, how
many lost more than 300, and how many walked into a mate the judge's move avoided.

    python3 scripts/judge-moves.py --engine arbor --judge /path/to/pbrain-rapfi \\
        --movetime 300 --every 3 rapfi.jsonl > judged.jsonl
"""

import argparse
import json
import re
import statistics
import sys

from gomocup_brain import ask, parse

EVAL = re.compile(r"Eval ([+-]?M?\d+)")
MATE = 20000


def score(text):
    if "M" in text:
        return -MATE if text.startswith("-") else MATE
    return int(text)


def judge(brain, size, movetime, moves):
    """The judge's move and last evaluation (for the side to move) after `moves`."""
    to_move = ("black", "white")[len(moves) % 2]
    stones = [(x, y, ("black", "white")[i % 2]) for i, (x, y) in enumerate(moves)]
    move, printed = ask(brain, size, movetime, stones, to_move)
    values = [EVAL.search(line) for line in printed]
    values = [score(found.group(1)) for found in values if found]
    return move, values[-1] if values else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("jsonl", nargs="+")
    parser.add_argument("--engine", required=True, help="the judged engine's name in the match")
    parser.add_argument("--judge", required=True, help="the judge's Gomocup command")
    parser.add_argument("--movetime", type=int, default=300, help="judge ms a position")
    parser.add_argument("--every", type=int, default=1, help="judge every Nth position")
    args = parser.parse_args()

    seen, same, losses, into_mate = 0, 0, [], 0
    for path in args.jsonl:
        for record in map(json.loads, open(path)):
            size = int(re.search(r"size=(\d+)", record["match"]["game"]).group(1))
            for game in record.get("games", []):
                moves = [parse(m) for m in game["setup"]["moves"] + game["moves"]]
                for ply in range(len(game["setup"]["moves"]), len(moves)):
                    if game[("black", "white")[ply % 2]] != args.engine:
                        continue
                    seen += 1
                    if (seen - 1) % args.every:
                        continue
                    played = moves[ply]
                    best, _ = judge(args.judge, size, args.movetime, moves[:ply])
                    row = {"game": game["number"], "ply": ply, "played": played, "judge": best}
                    if best is None:
                        continue
                    if best == played:
                        same += 1
                    else:
                        _, after_played = judge(args.judge, size, args.movetime, moves[:ply + 1])
                        _, after_best = judge(args.judge, size, args.movetime,
                                            moves[:ply] + [best])
                        if after_played is None or after_best is None:
                            continue
                        # Evaluations are the opponent's: the loss is the difference.
                        loss = after_played - after_best
                        row.update(after_played=-after_played, after_judge=-after_best,
                                   loss=loss)
                        losses.append(loss)
                        into_mate += after_played == MATE and after_best != MATE
                    print(json.dumps(row), flush=True)
    judged = same + len(losses)
    if judged == 0:
        sys.exit("no positions judged")
    median = statistics.median(losses) if losses else 0
    print(f"{judged} positions: the judge's move in {same} ({100 * same / judged:.1f}%); "
          f"other moves' median loss {median}, {sum(loss > 300 for loss in losses)} lost "
          f"over 300, {into_mate} into a mate the judge's move avoided", file=sys.stderr)


if __name__ == "__main__":
    main()
