#!/usr/bin/env python3
"""Prints solving tasks for `arbor solve --jsonl`: 8x8 Othello positions reached by
random legal moves from the start, with EMPTIES empty squares (default 14 to 18), one
JSON object per line. Repeatable: the same --seed gives the same positions.

    python3 scripts/ray_runner/random_tasks.py --count 200 --seed 1 > tasks.jsonl
"""

import argparse
import json
import random

DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def flips(board, square, me):
    """The discs a move at `square` would turn, for `me` ('X' or 'O')."""
    other = "O" if me == "X" else "X"
    row, col = divmod(square, 8)
    turned = []
    for dr, dc in DIRECTIONS:
        line = []
        r, c = row + dr, col + dc
        while 0 <= r < 8 and 0 <= c < 8 and board[r * 8 + c] == other:
            line.append(r * 8 + c)
            r, c = r + dr, c + dc
        if line and 0 <= r < 8 and 0 <= c < 8 and board[r * 8 + c] == me:
            turned += line
    return turned


def moves(board, me):
    return [s for s in range(64) if board[s] == "-" and flips(board, s, me)]


def position(rng, empties):
    """A random game played until `empties` squares are left, with the side to move
    having a move; None when the game ended first."""
    board = ["-"] * 64
    board[27], board[28], board[35], board[36] = "O", "X", "X", "O"
    me = "X"
    while board.count("-") > empties:
        legal = moves(board, me)
        if not legal:
            me = "O" if me == "X" else "X"
            if not moves(board, me):
                return None
            continue
        square = rng.choice(legal)
        for turned in flips(board, square, me):
            board[turned] = me
        board[square] = me
        me = "O" if me == "X" else "X"
    if not moves(board, me):
        return None
    return "".join(board) + " " + me


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--empties", default="14-18", help="a number or a range LOW-HIGH")
    args = parser.parse_args()
    low, _, high = args.empties.partition("-")
    low, high = int(low), int(high or low)
    rng = random.Random(args.seed)
    made = 0
    while made < args.count:
        found = position(rng, rng.randint(low, high))
        if found:
            made += 1
            print(json.dumps({"id": made, "position": found}))


if __name__ == "__main__":
    main()
