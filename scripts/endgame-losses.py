#!/usr/bin/env python3
"""Where an engine's Othello games were decided: each game's exact value at a few empties
counts (solved by `arbor solve --jsonl`) beside its final result, from one engine's view.

From a checkpoint on, the exact value falls only by that engine's mistakes and rises only
by its opponent's; a game that was won at 20 empties and lost at the end was lost in the
endgame, whatever the midgame did.

Usage: scripts/endgame-losses.py GAMES.ggf --engine NAME [--empties 24,20]
       [--binary target/release/arbor] [--threads 1]
The GGF file is what `arbor match --ggf` appends (8x8, normal rule).
"""

import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys


def board_class():
    """The Othello board of `zebra-native.py` (its moves checked as it plays them)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "zebra-native.py")
    spec = importlib.util.spec_from_file_location("zebra_native", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Board


def games(text):
    """Per game: the players, the result from Black's view and the positions reached
    (64 cells a1..h8 and the side to move, X for Black), by empties count."""
    Board = board_class()
    for number, record in enumerate(re.findall(r"\(;GM\[Othello\].*?;\)", text, re.S), 1):
        field = lambda name: re.search(name + r"\[([^\]]*)\]", record)
        start = field("BO")
        if not start or not start.group(1).startswith("8 "):
            sys.exit(f"game {number}: not an 8x8 game")
        cells, _ = start.group(1)[2:].split()
        board = Board()
        board.cells = [[{"*": 1, "O": 2}.get(ch, 0) for ch in cells[r * 8:r * 8 + 8]]
                       for r in range(8)]
        positions = {}
        for colour, square in re.findall(r"([BW])\[([a-hA-H][1-8]|[pP][aA][sS]?[sS]?)[^\]]*\]", record):
            board.to_move = 1 if colour == "B" else 2
            text = "".join(".XO"[cell] for row in board.cells for cell in row).replace(".", "-")
            positions.setdefault(board.empties(), text + " " + "XO"[board.to_move - 1])
            if square.lower().startswith("pa"):
                continue
            try:
                board.play(square)
            except ValueError as error:
                sys.exit(f"game {number}: {error}")
        result = round(float(field("RE").group(1).split(":")[0]))
        yield number, field("PB").group(1), field("PW").group(1), result, positions


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("ggf")
    parser.add_argument("--engine", required=True, help="the player whose view is taken")
    parser.add_argument("--empties", default="24,20")
    parser.add_argument("--binary", default="target/release/arbor")
    parser.add_argument("--threads", default="1")
    args = parser.parse_args()
    checkpoints = sorted({int(e) for e in args.empties.split(",")}, reverse=True)
    rows, tasks = [], []
    for number, black, white, result, positions in games(open(args.ggf).read()):
        if args.engine not in (black, white):
            continue
        sign = 1 if black == args.engine else -1
        rows.append((number, sign, sign * result))
        for empties in checkpoints:
            if empties in positions:
                tasks.append({"id": f"{number}/{empties}", "position": positions[empties]})
    solved = subprocess.run(
        [args.binary, "solve", "--jsonl", "--threads", args.threads],
        input="".join(json.dumps(task) + "\n" for task in tasks),
        capture_output=True, text=True, check=True).stdout
    value = {}
    for line in solved.splitlines():
        answer = json.loads(line)
        if "error" in answer:
            sys.exit(f"solve: {answer['error']}")
        number, empties = map(int, answer["id"].split("/"))
        black_to_move = answer["position"].endswith("X")
        value[number, empties] = answer["lower"] if black_to_move else -answer["lower"]
    outcome = lambda v: "won" if v > 0 else "drawn" if v == 0 else "lost"
    print("game  colour  " + "  ".join(f"{e:>4} empties" for e in checkpoints) + "   final")
    drops = {e: [0, 0, 0] for e in checkpoints}  # games with a drop, discs, changed outcomes
    for number, sign, final in rows:
        values = [value.get((number, e)) for e in checkpoints]
        print(f"{number:4}  {'black' if sign > 0 else 'white':6}  "
              + "  ".join(f"{'-' if v is None else sign * v:>+12}" for v in values)
              + f"  {final:>+6}")
        for e, v in zip(checkpoints, values):
            if v is not None and sign * v > final:
                drops[e][0] += 1
                drops[e][1] += sign * v - final
                drops[e][2] += outcome(sign * v) != outcome(final)
    for e in checkpoints:
        count, discs, changed = drops[e]
        print(f"from {e} empties on: {args.engine} ended below the exact value in {count} of "
              f"{len(rows)} games, {discs} discs in all, {changed} results changed")


if __name__ == "__main__":
    main()
