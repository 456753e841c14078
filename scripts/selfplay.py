#!/usr/bin/env python3
"""Plays Othello games between two engines that speak arbor's native protocol.

A stop-gap referee until `arbor match` exists: it keeps the clocks (wall time from
sending `go` to the reply), checks every move with a separate referee process, and
prints each game and the totals, including the original exam's disc score (per game:
own discs minus the opponent's, empty squares to the winner; -64..64).

Example (engine vs. the random player, 20 games, 5 minutes per side per game):
  scripts/selfplay.py --first "target/release/arbor" \
      --second "target/release/arbor --player random" --games 20 --tc 300
"""

import argparse
import random
import shlex
import subprocess
import sys
import time

TOLERANCE = 0.05  # seconds a clock may go below zero before it counts as a forfeit


class Engine:
    def __init__(self, command):
        self.command = command
        self.proc = subprocess.Popen(
            shlex.split(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )

    def ask(self, line):
        """Sends one command; returns (reply lines without info lines, seconds taken)."""
        start = time.monotonic()
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        reply = []
        while True:
            text = self.proc.stdout.readline()
            if text == "":
                raise RuntimeError(f"{self.command}: no reply to {line!r}")
            text = text.rstrip("\n")
            if text == "":
                if reply:
                    return reply, time.monotonic() - start
                continue
            if not text.startswith("info "):
                reply.append(text)

    def ok(self, line):
        reply, _ = self.ask(line)
        if not reply[0].startswith("="):
            raise RuntimeError(f"{self.command}: {line!r} -> {reply}")
        return reply[0][1:].strip()

    def close(self):
        try:
            self.proc.stdin.write("quit\n")
            self.proc.stdin.flush()
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()


def play_game(players, referee, setup, clock, inc, opening, log):
    """players[0] is black. Returns (result for black: 1, 0.5, 0, black score -64..64, note)."""
    for engine in players + [referee]:
        engine.ok(setup)
    for move in opening:
        for engine in players + [referee]:
            engine.ok(f"move {move}")
    clocks = [clock, clock]
    while True:
        status = referee.ok("status")
        if status.startswith("over"):
            _, winner, black, white = status.split()
            black, white = int(black), int(white)
            empties = squares(setup) - black - white
            margin = black - white
            score = margin + empties if margin > 0 else margin - empties if margin < 0 else 0
            if "rule=misere" in setup:
                score = -score  # fewer discs is better: the winner's margin counts as positive
            result = {"black": 1.0, "white": 0.0, "draw": 0.5}[winner]
            return result, score, status
        side = 0 if status == "playing black" else 1
        mover, other = players[side], players[1 - side]
        ms = max(int(clocks[side] * 1000), 0)
        reply, elapsed = mover.ask(f"go time {ms} inc {int(inc * 1000)}")
        clocks[side] -= elapsed
        if clocks[side] < -TOLERANCE:
            return forfeit(side, f"time forfeit by {mover.command} ({clocks[side]:.3f} s)")
        clocks[side] += inc
        if not reply[0].startswith("= "):
            return forfeit(side, f"bad reply {reply} from {mover.command}")
        move = reply[0][2:].strip()
        check, _ = referee.ask(f"move {move}")
        if not check[0].startswith("="):
            return forfeit(side, f"illegal move {move} by {mover.command}: {check[0]}")
        other.ok(f"move {move}")
        log.append(move)


def forfeit(side, note):
    score = -64 if side == 0 else 64
    return (0.0 if side == 0 else 1.0), score, note


def squares(setup):
    for word in setup.split():
        if word.startswith("size="):
            return int(word[5:]) ** 2
    return 64


def random_opening(referee, setup, plies, rng):
    referee.ok(setup)
    moves = []
    for _ in range(plies):
        legal = referee.ok("moves").split()
        if not legal:
            break
        move = rng.choice(legal)
        referee.ok(f"move {move}")
        moves.append(move)
    return moves


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--first", required=True, help="command of the first engine")
    parser.add_argument("--second", required=True, help="command of the second engine")
    parser.add_argument("--games", type=int, default=2, help="games (colours alternate)")
    parser.add_argument("--tc", default="10", help="seconds per side per game, optionally +increment")
    parser.add_argument("--size", type=int, default=8)
    parser.add_argument("--rule", default="normal")
    parser.add_argument("--random-plies", type=int, default=0, help="random opening plies (same opening for each pair)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--referee", default="target/release/arbor", help="arbor binary that checks the moves")
    args = parser.parse_args()

    clock, _, inc = args.tc.partition("+")
    clock, inc = float(clock), float(inc or 0)
    setup = f"newgame othello size={args.size} rule={args.rule}"
    rng = random.Random(args.seed)
    first, second, referee = Engine(args.first), Engine(args.second), Engine(args.referee)
    points = 0.0
    exam = 0
    wins = draws = losses = forfeits = 0
    opening = []
    try:
        for game in range(args.games):
            if game % 2 == 0:
                opening = random_opening(referee, setup, args.random_plies, rng)
            first_is_black = game % 2 == 0
            players = [first, second] if first_is_black else [second, first]
            log = []
            result, black_score, note = play_game(players, referee, setup, clock, inc, opening, log)
            mine = result if first_is_black else 1 - result
            score = black_score if first_is_black else -black_score
            points += mine
            exam += score
            wins += mine == 1
            draws += mine == 0.5
            losses += mine == 0
            forfeits += not note.startswith("over")
            colour = "black" if first_is_black else "white"
            print(f"game {game + 1:>3}: first as {colour}: {mine:.1f} disc score {score:+d} ({note}) "
                  f"moves {' '.join(opening + log)}", flush=True)
    finally:
        for engine in (first, second, referee):
            engine.close()
    print(f"first: {wins} wins, {draws} draws, {losses} losses, {points}/{args.games} points, "
          f"exam disc score {exam} of {64 * args.games}, forfeits/illegal {forfeits}")
    return 0 if forfeits == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
