#!/usr/bin/env python3
"""Parallel search benchmark: the same work with 1 thread and with N threads.

Parts (each prints medians over RUNS runs and the ratio to 1 thread):
  ffo       `arbor solve --threads T` on an OBF file (default FFO #40-#49): time and nodes
  midgame   `go depth D` on 20 Othello positions after 20 plies of WTHOR games: time
  tictactoe `solve` of 4x4 tic-tac-toe from the start: time and nodes

Usage: scripts/parallel-bench.py [--threads 1,2] [--runs 3] [--parts ffo,midgame,tictactoe]
       [--obf FILE] [--depth 11] [--binary target/release/arbor]
Reference data comes from ../shared; a part whose data is absent is skipped.
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "data", "othello")


class Engine:
    """An arbor process spoken to over the native protocol."""

    def __init__(self, binary, threads):
        self.process = subprocess.Popen(
            [binary, "--threads", str(threads)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )

    def ask(self, command):
        """Sends a command; returns its info lines and its reply."""
        self.process.stdin.write(command + "\n")
        infos = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                sys.exit(f"the engine ended during {command!r}")
            line = line.rstrip("\n")
            if line.startswith("info"):
                infos.append(line)
            elif line.startswith("=") or line.startswith("?"):
                if line.startswith("?"):
                    sys.exit(f"{command!r}: {line}")
                return infos, line

    def close(self):
        self.process.stdin.write("quit\n")
        self.process.stdin.close()
        self.process.wait()


def field(info, key):
    match = re.search(rf"\b{key} (\S+)", info)
    return int(match.group(1)) if match else 0


def ffo(binary, threads, obf):
    out = subprocess.run(
        [binary, "solve", "--hash", "640", "--threads", str(threads), obf],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    total = out.strip().splitlines()[-1]
    seconds = float(re.search(r"time ([0-9.]+) s", total).group(1))
    nodes = int(re.search(r"nodes (\d+)", total).group(1))
    return seconds, nodes


def midgame_positions():
    games = os.path.join(SHARED, "games", "wthor", "WTH_2020.txt")
    if not os.path.exists(games):
        return None
    positions = []
    with open(games) as lines:
        for line in lines:
            moves = line.split()[0]
            if len(moves) >= 40:
                positions.append([moves[i : i + 2] for i in range(0, 40, 2)])
            if len(positions) == 20:
                break
    return positions


def midgame(binary, threads, positions, depth):
    engine = Engine(binary, threads)
    seconds = 0.0
    nodes = 0
    for moves in positions:
        engine.ask("newgame othello")
        engine.ask("clear hash")
        for move in moves:
            engine.ask(f"move {move}")
        start = time.monotonic()
        infos, _ = engine.ask(f"go depth {depth}")
        seconds += time.monotonic() - start
        nodes += field(infos[-1], "nodes")
    engine.close()
    return seconds, nodes


def tictactoe(binary, threads):
    engine = Engine(binary, threads)
    engine.ask("newgame tictactoe size=4")
    start = time.monotonic()
    infos, reply = engine.ask("solve")
    seconds = time.monotonic() - start
    engine.close()
    assert reply == "= a1 draw" or reply.endswith(" draw"), reply
    return seconds, field(infos[-1], "nodes")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--parts", default="ffo,midgame,tictactoe")
    parser.add_argument("--obf", default=None)
    parser.add_argument("--depth", type=int, default=11)
    parser.add_argument("--binary", default=os.path.join(ROOT, "target", "release", "arbor"))
    args = parser.parse_args()
    if args.binary.endswith(os.path.join("release", "arbor")):
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    threads = [int(t) for t in args.threads.split(",")]
    parts = args.parts.split(",")

    obf = args.obf
    if obf is None:
        full = os.path.join(SHARED, "fforum-40-59.obf")
        if os.path.exists(full):
            obf = "/tmp/arbor-ffo-40-49.obf"
            with open(full) as source, open(obf, "w") as target:
                target.writelines(source.readlines()[:10])
    positions = midgame_positions()

    jobs = {
        "ffo": (obf is not None, lambda t: ffo(args.binary, t, obf)),
        "midgame": (
            positions is not None,
            lambda t: midgame(args.binary, t, positions, args.depth),
        ),
        "tictactoe": (True, lambda t: tictactoe(args.binary, t)),
    }
    for part in parts:
        available, job = jobs[part]
        if not available:
            print(f"{part}: skipped (reference data lives in ../shared)")
            continue
        base = None
        for count in threads:
            results = [job(count) for _ in range(args.runs)]
            seconds = statistics.median(r[0] for r in results)
            nodes = statistics.median(r[1] for r in results)
            if base is None:
                base = (seconds, nodes)
            print(
                f"{part:9} threads {count:2}  median time {seconds:8.3f} s  "
                f"nodes {nodes:14.0f}  speedup {base[0] / seconds:5.2f}x  "
                f"node overhead {100 * (nodes / base[1] - 1):+6.1f}%  "
                f"(times {', '.join(f'{r[0]:.3f}' for r in results)})",
                flush=True,
            )


if __name__ == "__main__":
    main()
