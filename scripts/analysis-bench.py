#!/usr/bin/env python3
"""Measures the analysis features (issue: multi-PV analysis):

1. multi-PV cost: time to a fixed depth with multipv 1, 4 and all on middle-game
   positions of WTHOR games, against `go depth` (the plain search) in the same run;
2. stop latency: how long after `stop` an infinite `analyze` replies;
3. `arbor analysis` throughput on a batch of positions at a fixed depth;
4. `arbor review` of a 60-move game at its default time.

Usage: scripts/analysis-bench.py [ARBOR] [--wthor FILE] [--positions N] [--depth D]
Prints medians; every figure is measured in this run, with one search thread.
"""

import argparse
import json
import os
import select
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


class Engine:
    def __init__(self, arbor):
        self.proc = subprocess.Popen([arbor, "--hash", "64"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def reply(self):
        """Lines up to the reply's closing empty line; returns (reply, lines)."""
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if line == "":
                raise RuntimeError("engine exited")
            line = line.rstrip("\n")
            if line == "":
                return lines[-1], lines
            lines.append(line)

    def call(self, line):
        self.send(line)
        return self.reply()

    def close(self):
        self.send("quit")
        self.proc.wait()


def positions(wthor, count, ply):
    """The positions after `ply` moves of the first `count` games (as move lists)."""
    out = []
    with open(wthor) as games:
        for line in games:
            moves = line.split()[0]
            if len(moves) >= 2 * (ply + 10):
                out.append([moves[i:i + 2] for i in range(0, 2 * ply, 2)])
            if len(out) == count:
                break
    return out


def multipv_cost(arbor, games, depth):
    engine = Engine(arbor)
    times = {"go": [], "1": [], "4": [], "all": []}
    for moves in games:
        for kind in times:
            engine.call("newgame")
            for mv in moves:
                engine.call("move " + mv)
            start = time.perf_counter()
            if kind == "go":
                engine.call(f"go depth {depth}")
                engine.call("undo")
            else:
                engine.call(f"analyze depth {depth} multipv {kind}")
            times[kind].append(time.perf_counter() - start)
    engine.close()
    base = statistics.median(times["go"])
    print(f"multi-PV cost, depth {depth}, {len(games)} positions after 20 plies (median s, ratio to go):")
    for kind, values in times.items():
        med = statistics.median(values)
        print(f"  {kind:>4}: {med:.3f} s  x{med / base:.2f}")


def stop_latency(arbor, games, trials):
    engine = Engine(arbor)
    latencies = []
    for index in range(trials):
        moves = games[index % len(games)]
        engine.call("newgame")
        for mv in moves:
            engine.call("move " + mv)
        engine.send("analyze infinite multipv 4 interval 50")
        time.sleep(0.2 + 0.05 * (index % 7))
        start = time.perf_counter()
        engine.send("stop")
        engine.reply()
        latencies.append(time.perf_counter() - start)
        engine.reply()  # the stop's own reply
    engine.close()
    latencies.sort()
    print(f"stop latency over {trials} analyses: median {1000 * statistics.median(latencies):.1f} ms,"
          f" max {1000 * latencies[-1]:.1f} ms")


def batch_throughput(arbor, games, depth):
    queries = "".join(json.dumps({"id": i, "moves": moves, "depth": depth, "multipv": 4}) + "\n"
                      for i, moves in enumerate(games))
    start = time.perf_counter()
    out = subprocess.run([arbor, "analysis", "--hash", "64", "--threads", "1"], input=queries,
                         text=True, capture_output=True, check=True).stdout
    elapsed = time.perf_counter() - start
    answers = [json.loads(line) for line in out.splitlines()]
    final = sum(1 for a in answers if a.get("final"))
    print(f"arbor analysis: {final} positions (depth {depth}, multipv 4) in {elapsed:.2f} s:"
          f" {final / elapsed:.1f} positions/s")


def review_time(arbor, wthor):
    with open(wthor) as games:
        for line in games:
            moves = line.split()[0]
            if len(moves) == 120:
                break
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "game.txt")
        with open(path, "w") as record:
            record.write(moves + "\n")
        start = time.perf_counter()
        subprocess.run([arbor, "review", "--threads", "1", path], check=True, capture_output=True)
        print(f"arbor review of a 60-move game (default 300 ms per analysis):"
              f" {time.perf_counter() - start:.1f} s")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("arbor", nargs="?", default=os.path.join(HERE, "../target/release/arbor"))
    parser.add_argument("--wthor", default=os.path.join(
        HERE, "../../shared/data/othello/games/wthor/WTH_2020.txt"))
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--depth", type=int, default=9)
    args = parser.parse_args()
    if not os.path.isfile(args.wthor):
        sys.exit(f"{args.wthor}: not found (../shared beside the checkout, or --wthor FILE)")
    games = positions(args.wthor, args.positions, 20)
    multipv_cost(args.arbor, games, args.depth)
    stop_latency(args.arbor, games, 30)
    batch_throughput(args.arbor, positions(args.wthor, 100, 24), 8)
    review_time(args.arbor, args.wthor)


if __name__ == "__main__":
    main()
