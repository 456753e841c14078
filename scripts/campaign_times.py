#!/usr/bin/env python3
"""What a split campaign cost, and what N machines would take for it.

For each campaign directory (`arbor solve campaign --dir DIR`, or the Ray runner's): the
rounds, the tasks of each, their total and longest time, and per machine count the time
a cluster of that many one-core machines would take: the rounds one after another, each
round's tasks dealt longest first to the machine free first (results read from
DIR/results.jsonl, matched to the round files by position and window).

A task's time is its `ms`, or with --rate M its nodes at M million nodes a second (on a
loaded machine the wall times say more about the load than about the work).

Usage: scripts/campaign_times.py DIR... [--machines 1,2,4,8,16,64] [--rate M]
"""

import argparse
import heapq
import json
from pathlib import Path


def key(task):
    return (task["position"], task.get("rule", "normal"), task.get("alpha"), task.get("beta"))


def makespan(times, machines):
    """Longest-first onto the machine free first."""
    free = [0.0] * machines
    for time in sorted(times, reverse=True):
        heapq.heapreplace(free, free[0] + time)
    return max(free)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="+")
    parser.add_argument("--machines", default="1,2,4,8,16,64")
    parser.add_argument("--rate", type=float, help="million nodes a second per machine")
    args = parser.parse_args()
    machines = [int(m) for m in args.machines.split(",")]
    print("campaign  round  tasks  total s  longest s  " + "  ".join(f"{m:>6}m" for m in machines))
    for directory in map(Path, args.dirs):
        if not (directory / "results.jsonl").is_file():
            print(f"{directory}: no results.jsonl (not a campaign directory)")
            continue
        results = {}
        for line in (directory / "results.jsonl").read_text().splitlines():
            if line.strip():
                result = json.loads(line)
                if "error" not in result:
                    results.setdefault(key(result), result)
        spans = [0.0] * len(machines)
        number = 1
        while (directory / f"round-{number}.jsonl").exists():
            lines = (directory / f"round-{number}.jsonl").read_text().splitlines()
            tasks = [json.loads(line) for line in lines if line.startswith("{")]
            done = [results[key(task)] for task in tasks if key(task) in results]
            if args.rate:
                times = [result["nodes"] / args.rate / 1e6 for result in done]
            else:
                times = [result["ms"] / 1000 for result in done]
            missing = len(tasks) - len(done)
            if not times:
                print(f"{directory.name:9} {number:5}  {len(tasks):5}  none solved yet")
                break
            round_spans = [makespan(times, m) for m in machines]
            spans = [a + b for a, b in zip(spans, round_spans)]
            note = f"  ({missing} of {len(tasks)} not solved yet)" if missing else ""
            print(
                f"{directory.name:9} {number:5}  {len(done):5}  {sum(times):7.1f}  "
                f"{max(times):9.1f}  " + "  ".join(f"{s:7.1f}" for s in round_spans) + note
            )
            number += 1
        print(f"{directory.name:9} {'all':>5}  {'':5}  {'':7}  {'':9}  "
              + "  ".join(f"{s:7.1f}" for s in spans))


if __name__ == "__main__":
    main()
