#!/usr/bin/env python3
"""End-to-end test of the Ray runner on a local 2-CPU cluster: a sharded match merges
to what one `arbor match` prints, an SPRT stops it early, a solve campaign gives
what `arbor solve --jsonl` gives, a self-play campaign's shards join into the file
one `arbor selfplay` writes, and a labelling campaign's journals give the labels file
one `arbor train` writes. Without Ray only the self-play and labelling campaigns run
(the runner runs their shards without Ray), and the rest is reported skipped (exit 0).

    python3 scripts/ray_runner/test_arbor_ray.py      # ARBOR=path/to/arbor to choose
"""

import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]


def arbor_binary():
    if os.environ.get("ARBOR"):
        return os.environ["ARBOR"]
    # The debug build is the one `cargo test` has just made.
    for profile in ("debug", "release"):
        path = REPO / "target" / profile / "arbor"
        if path.is_file():
            return str(path)
    subprocess.run(["cargo", "build", "--quiet"], cwd=REPO, check=True)
    return str(REPO / "target" / "debug" / "arbor")


def run(command, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        sys.exit(f"FAILED: {' '.join(command[:4])} ...: exit {result.returncode}\n{result.stderr}")
    return result.stdout


def summary(text):
    """From the table's header on: what a run and a merge both print."""
    return text[text.index("engine "):]


def check(condition, message):
    if not condition:
        sys.exit(f"FAILED: {message}")


def selfplay_campaign(arbor, runner, have_ray):
    """7 games in 8 shards (one of them empty) join into the one-process file, with Ray
    and without; a finished campaign is not played again; other arguments are refused."""
    options = ["--games", "7", "--seed", "3", "--nodes", "300", "--hash", "1"]
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        whole = scratch / "whole.txt"
        run([arbor, "selfplay", *options, "--threads", "2", "--out", str(whole)])
        expected = whole.read_bytes()
        positions = expected.count(b"\n")
        check(positions > 7 * 5, f"{positions} positions in 7 games")
        modes = [("local", ["--local"])] + ([("ray", [])] if have_ray else [])
        for name, mode in modes:
            out = scratch / name
            command = runner + ["selfplay", *mode, "--shards", "8", "--out", str(out), "--", *options]
            printed = run(command)
            check((out / "selfplay.txt").read_bytes() == expected, f"{name}: the joined file differs\n{printed}")
            check(len(list(out.glob("shard-*-of-8.txt"))) == 8, printed)
            again = run(command)
            check("8 of 8 shards already in" in again and "shard " not in again.split("\n", 1)[1], again)
            print(f"ok: a self-play campaign in 8 shards ({name}) joins into the one-process file")
        other = subprocess.run(runner + ["selfplay", "--local", "--shards", "8", "--out", str(scratch / "local"),
                                         "--", *options[:-1], "2"], capture_output=True, text=True)
        check(other.returncode != 0 and "another self-play campaign" in other.stderr, other.stderr)
        print("ok: a campaign directory refuses other arguments")


def random_records(count, seed):
    """`count` random 8x8 games in Egaroucid's record format (moves, then the winner)."""
    sys.path.insert(0, str(HERE))
    from random_tasks import flips, moves

    rng = random.Random(seed)
    lines = []
    for _ in range(count):
        board = ["-"] * 64
        board[27], board[28], board[35], board[36] = "O", "X", "X", "O"
        me, text = "X", ""
        while True:
            legal = moves(board, me)
            if not legal:
                me = "O" if me == "X" else "X"
                if not moves(board, me):
                    break
                continue
            square = rng.choice(legal)
            for turned in flips(board, square, me):
                board[turned] = me
            board[square] = me
            text += "abcdefgh"[square % 8] + str(square // 8 + 1)
            me = "O" if me == "X" else "X"
        black, white = board.count("X"), board.count("O")
        lines.append(f"{text} {(black > white) - (black < white)}\n")
    return "".join(lines)


def label_campaign(arbor, runner, have_ray):
    """A labelling in 3 shards (and 1) gives the labels file of one `arbor train`, with Ray
    and without; a finished campaign labels nothing again; other arguments are refused."""
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        records = scratch / "records.txt"
        records.write_text(random_records(12, 7))
        options = ["--egaroucid", str(records), "--solve-empties", "8", "--search-depth", "2"]
        direct = scratch / "direct.bin"
        run([arbor, "train", *options, "--labels", str(direct), "--no-fit", "--threads", "2"])
        expected = direct.read_bytes()
        modes = [("local", ["--local"])] + ([("ray", [])] if have_ray else [])
        for name, mode in modes:
            for shards in (3, 1):
                out = scratch / f"{name}-{shards}"
                labels = scratch / f"{name}-{shards}.bin"
                command = runner + ["label", *mode, "--shards", str(shards), "--out", str(out),
                                    "--labels", str(labels), "--", *options]
                printed = run(command)
                check(labels.read_bytes() == expected, f"{name}, {shards} shards: the labels differ\n{printed}")
                check(len(list(out.glob(f"shard-*-of-{shards}.bin"))) == shards, printed)
            again = run(command)
            check("1 of 1 shards already in" in again and "shard 0 done" not in again, again)
            print(f"ok: a labelling in 3 shards and in 1 ({name}) gives the one-process labels")
        other = subprocess.run(runner + ["label", "--local", "--shards", "3", "--out", str(scratch / "local-3"),
                                         "--labels", str(scratch / "x.bin"), "--", *options[:-1], "3"],
                               capture_output=True, text=True)
        check(other.returncode != 0 and "another labelling" in other.stderr, other.stderr)
        print("ok: a labelling directory refuses other arguments")


def main():
    arbor = arbor_binary()
    runner = [sys.executable, str(HERE / "arbor_ray.py"), "--cpus", "2", "--arbor", arbor]
    try:
        import ray  # noqa: F401
        have_ray = True
    except ImportError:
        have_ray = False
    selfplay_campaign(arbor, runner, have_ray)
    label_campaign(arbor, runner, have_ray)
    if not have_ray:
        print("skipped: ray not installed, the match and solve campaigns and the self-play "
              "and labelling campaigns on Ray (pip install -r scripts/ray_runner/requirements.txt)")
        return
    match = [
        "--game", "othello", "--size", "6", "--depth", "2",
        "--random-openings", "4", "--rounds", "10", "--seed", "5",
        "--engine", "name=search", f"cmd={arbor}",
        "--engine", "name=greedy", f"cmd={arbor} --player greedy --seed 3",
    ]
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        whole = run([arbor, "match", *match])
        # 12 shards of 10 pairs: two shards have none.
        sharded = run(runner + ["match", "--shards", "12", "--out", str(scratch / "m"), "--", *match])
        check("merged 10 of 10 pairs (20 games) from 10 files" in sharded, sharded)
        check(summary(sharded).split("runner:")[0] == summary(whole), f"{sharded}\n---\n{whole}")
        print("ok: 12 shards on Ray merge to the unsharded match")

        # A second run finds every shard done and plays nothing.
        again = run(runner + ["match", "--shards", "12", "--out", str(scratch / "m"), "--", *match])
        check("12 of 12 shards already in" in again and "shard " not in again.split("\n", 1)[1], again)
        print("ok: a finished campaign is not played again")

        # Search against greedy wins nearly every pair: the SPRT stops the campaign early,
        # and the shards still running are cancelled with their engines (marked by a seed
        # unique to this test).
        marker = f"--seed {os.getpid()}"
        marked = [f"cmd={arbor} --player greedy {marker}" if word.startswith("cmd=") and "greedy" in word
                  else word for word in match]
        sprt = run(runner + ["match", "--shards", "10", "--parallel", "2", "--sprt", "elo0=0 elo1=200",
                             "--out", str(scratch / "s"), "--", *marked])
        check("H1 accepted" in sprt, sprt)
        played = len(list((scratch / "s").glob("shard-*.jsonl")))
        check(played < 10, f"all {played} shards played despite the SPRT:\n{sprt}")
        time.sleep(1)
        left = [line for line in run(["ps", "-eo", "args"]).splitlines() if marker in line]
        check(not left, f"processes left behind: {left}")
        print(f"ok: the SPRT stopped the campaign after {played} of 10 shards, nothing left running")

        tasks = scratch / "tasks.jsonl"
        generated = run([sys.executable, str(HERE / "random_tasks.py"), "--count", "12", "--seed", "3"])
        tasks.write_text(generated + '{"id": "bad", "position": "-X X"}\n% a comment\n'
                         + '{"id": "w", "position": "-XXX-OOX-XOXXXO- X", "alpha": 0, "beta": 4}\n')
        out = scratch / "results.jsonl"
        run(runner + ["solve", "--tasks", str(tasks), "--out", str(out), "--chunks", "5"])
        # One thread, as each Ray task runs: with more, a position with two best moves may
        # name either (the thread that proves one first decides).
        direct = run([arbor, "solve", "--jsonl", "--hash", "64", "--threads", "1"],
                     input=tasks.read_text())

        def comparable(lines):
            rows = [json.loads(line) for line in lines]
            return [{k: v for k, v in row.items() if k not in ("nodes", "ms")} for row in rows]

        got = comparable(out.read_text().splitlines())
        check(len(got) == 14, f"{len(got)} results for 14 tasks")
        check(got == comparable(direct.splitlines()), f"{got}\n---\n{direct}")
        check(got[12]["id"] == "bad" and "error" in got[12], got[12])
        check(got[13]["line"] == 15, got[13])
        print("ok: a solve campaign on Ray gives what arbor solve --jsonl gives")

        # A split campaign: FFO #1 and #2 in a window both fail (their scores, +18 and
        # +10, are below it), merged round after round to the scores the suite lists.
        obf = scratch / "ffo.obf"
        obf.write_text(
            "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18;\n"
            "-XXXXXX---XOOOO--XOXXOOX-OOOOOOOOOOOXXOOOOOXXOOX--XXOO----XXXXX- X; A4:+10;\n")
        (scratch / "c").mkdir()
        split = run([arbor, "solve", "split", "--depth", "2", "--window", "20,30", str(obf)])
        (scratch / "c" / "round-1.jsonl").write_text(split)
        campaign = run(runner + ["campaign", "--dir", str(scratch / "c"), "--chunks", "4", "--hash", "16"])
        check("ffo.obf:1  exact +18  best g8  expected +18 ok" in campaign, campaign)
        check("ffo.obf:2  exact +10  best a4  expected +10 ok" in campaign, campaign)
        check((scratch / "c" / "round-2.jsonl").exists(), "the failed window took another round")
        again = run(runner + ["campaign", "--dir", str(scratch / "c"), "--hash", "16"])
        check("0/0 tasks" not in again and "all exact" in again, again)
        print("ok: a split campaign on Ray merges to the listed scores, and resumes")


if __name__ == "__main__":
    main()
