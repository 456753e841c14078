#!/usr/bin/env python3
"""Parallel search benchmark: the same work with 1 thread and with N threads.

Parts (each prints medians over RUNS runs and the ratio to 1 thread):
  ffo       `arbor solve --threads T` on an OBF file (default FFO #40-#49): time and nodes
  midgame   `go depth D` on 20 Othello positions after 20 plies of WTHOR games: time
  tictactoe `solve` of 4x4 tic-tac-toe from the start: time and nodes
  tictactoe5 `solve` of 5x5 tic-tac-toe after c3 b2 d4 b4 b3 (20 empty points)

Usage: scripts/parallel-bench.py [--threads 1,2] [--runs 3] [--parts ffo,midgame,tictactoe]
       [--jamboree 1,2,4] [--obf FILE] [--depth 11] [--binary target/release/arbor]
--jamboree runs each thread count above 1 with each Jamboree setting (moves of a node the
exact solvers search alone before a split); the runs of all settings alternate, so that a
change in the machine's load falls on each alike.
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

    def __init__(self, binary, threads, jamboree=1):
        self.process = subprocess.Popen(
            [binary, "--threads", str(threads), "--jamboree", str(jamboree)],
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


def ffo(binary, threads, obf, jamboree=1):
    out = subprocess.run(
        [binary, "solve", "--hash", "640", "--threads", str(threads),
         "--jamboree", str(jamboree), obf],
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


def tictactoe(binary, threads, jamboree=1, size=4, moves=()):
    engine = Engine(binary, threads, jamboree)
    engine.ask(f"newgame tictactoe size={size}")
    for move in moves:
        engine.ask(f"move {move}")
    start = time.monotonic()
    infos, reply = engine.ask("solve")
    seconds = time.monotonic() - start
    engine.close()
    assert reply.startswith("= "), reply
    return seconds, field(infos[-1], "nodes")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--parts", default="ffo,midgame,tictactoe")
    parser.add_argument("--jamboree", default="1")
    parser.add_argument("--obf", default=None)
    parser.add_argument("--depth", type=int, default=11)
    parser.add_argument("--binary", default=os.path.join(ROOT, "target", "release", "arbor"))
    args = parser.parse_args()
    if args.binary.endswith(os.path.join("release", "arbor")):
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    threads = [int(t) for t in args.threads.split(",")]
    jamborees = [int(j) for j in args.jamboree.split(",")]
    configs = [(t, j) for t in threads for j in (jamborees if t > 1 else [1])]
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
        "ffo": (obf is not None, lambda t, j: ffo(args.binary, t, obf, j)),
        "midgame": (
            positions is not None,
            lambda t, j: midgame(args.binary, t, positions, args.depth),
        ),
        "tictactoe": (True, lambda t, j: tictactoe(args.binary, t, j)),
        "tictactoe5": (
            True,
            lambda t, j: tictactoe(args.binary, t, j, 5, "c3 b2 d4 b4 b3".split()),
        ),
    }
    for part in parts:
        available, job = jobs[part]
        if not available:
            print(f"{part}: skipped (reference data lives in ../shared)")
            continue
        base = None
        runs = {config: [] for config in configs}
        for _ in range(args.runs):
            for config in configs:
                runs[config].append(job(*config))
        for (count, jamboree), results in runs.items():
            seconds = statistics.median(r[0] for r in results)
            nodes = statistics.median(r[1] for r in results)
            if base is None:
                base = (seconds, nodes)
            label = f" jamboree {jamboree}" if len(jamborees) > 1 and count > 1 else ""
            print(
                f"{part:9} threads {count:2}{label}  median time {seconds:8.3f} s  "
                f"nodes {nodes:14.0f}  speedup {base[0] / seconds:5.2f}x  "
                f"node overhead {100 * (nodes / base[1] - 1):+6.1f}%  "
                f"(times {', '.join(f'{r[0]:.3f}' for r in results)})",
                flush=True,
            )


if __name__ == "__main__":
    main()
