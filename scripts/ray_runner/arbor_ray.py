#!/usr/bin/env python3
"""Runs arbor match, solve, self-play and labelling campaigns on a Ray cluster by driving the arbor binary.

match: the match is cut into --shards slices (`arbor match --shard I/N`); each runs as
a Ray task with one CPU and sends back its JSON lines. After every finished shard the
runner merges all of them (`arbor match merge`) and stops early once the SPRT decides,
as fishtest does. Finished shards are kept in --out, so running the same command again
after an interruption plays only the shards that were missing.

solve: the task file's lines are dealt to --chunks Ray tasks, each piping its lines
through `arbor solve --jsonl`; the results are written to --out in task order, with
`line` the task's line in the task file.

selfplay: the games of `arbor selfplay` are cut into --shards contiguous blocks
(`arbor selfplay --shard I/N`); each runs as a Ray task with one CPU and sends back its
dataset lines, kept in --out as DIR/shard-I-of-N.txt. When every shard is there they are
joined in shard order into one dataset file (DIR/selfplay.txt), byte for byte the file one
`arbor selfplay` without --shard writes. Running the same command again plays only the
missing shards. Without Ray (not installed, or --local) the shards are played here one
after another, each with all the cores.

label: the solves and searches of an `arbor train` labelling (Othello) are cut into
--shards shares (`arbor train --label-shard K/N`, the jobs whose number leaves K when
divided by N); each runs as a Ray task with one CPU and sends back its label journal,
kept in --out as DIR/shard-K-of-N.bin. When every shard is there, one `arbor train`
reading all the journals writes the labels file (--labels), byte for byte the file one
run without shards writes; fit from it with `arbor train ... --labels FILE`. Running the
same command again labels only the missing shards. Every machine needs the training
sources at the same paths. Without Ray (not installed, or --local) the shards are
labelled here one after another, each with all the cores.

campaign: the rounds of an `arbor solve split` campaign in --dir: each round's tasks
not yet answered in DIR/results.jsonl are dealt to Ray tasks as above, their results
appended as each finishes, then `arbor solve merge` gives the exact scores or the next
round's tasks (DIR/round-N.jsonl), until every root is exact. Running it again resumes.

Every machine of the cluster needs the arbor binary (and the engines of a match) at
the same paths.
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def default_arbor():
    if os.environ.get("ARBOR"):
        return os.environ["ARBOR"]
    return str(REPO / "target" / "release" / "arbor")


def _die_with_parent():
    """The arbor child gets SIGINT when its Ray worker dies (Linux), so that a killed
    task leaves no match and no engine behind."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGINT)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def run_arbor(command, stdin_text=None, cwd=None):
    """Runs arbor and returns its stdout; on cancellation (KeyboardInterrupt in a Ray
    task) arbor gets SIGINT, which ends its games and engines."""
    process = subprocess.Popen(
        command,
        cwd=cwd,
        stdin=subprocess.PIPE if stdin_text is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_die_with_parent,
    )
    try:
        stdout, stderr = process.communicate(stdin_text)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
    if process.returncode != 0:
        raise RuntimeError(
            f"{' '.join(command[:3])} ... exited with {process.returncode}: {stderr.strip()}"
        )
    return stdout


def play_shard(arbor, match_args, index, count, cwd):
    """One shard of the match; returns its JSON lines. It runs in the driver's directory
    where the machine has it, so relative paths in the match options work there."""
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "shard.jsonl"
        command = [arbor, "match", *match_args, "--shard", f"{index}/{count}"]
        run_arbor(command + ["--jsonl", str(path)], cwd=cwd if os.path.isdir(cwd) else None)
        return path.read_text()


def solve_chunk(arbor, hash_mb, lines):
    """Pipes task lines through arbor solve --jsonl (one thread: a Ray task has one
    CPU); returns its result lines."""
    stdout = run_arbor(
        [arbor, "solve", "--jsonl", "--hash", str(hash_mb), "--threads", "1"], "".join(lines)
    )
    return stdout.splitlines()


def selfplay_shard(arbor, selfplay_args, index, count, threads, cwd):
    """One block of a self-play campaign's games; returns its dataset lines (text)."""
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "shard.txt"
        command = [arbor, "selfplay", *selfplay_args, "--shard", f"{index}/{count}",
                   "--threads", str(threads), "--out", str(path)]
        run_arbor(command, cwd=cwd if os.path.isdir(cwd) else None)
        return path.read_text()


def label_shard(arbor, train_args, index, count, threads, cwd):
    """One share of a labelling's solves and searches; returns its journal (bytes)."""
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "journal.bin"
        command = [arbor, "train", *train_args, "--label-shard", f"{index}/{count}",
                   "--label-journal", str(path), "--no-fit", "--threads", str(threads)]
        run_arbor(command, cwd=cwd if os.path.isdir(cwd) else None)
        return path.read_bytes()


def merge(arbor, files, sprt):
    command = [arbor, "match", "merge", *map(str, files)]
    if sprt:
        command += ["--sprt", *sprt.split()]
    return run_arbor(command)


def verdict(merged):
    for line in merged.splitlines():
        if line.startswith("sprt: ") and line.endswith(" accepted"):
            return line.rsplit(": ", 1)[1]
    return None


def finished_shards(out, count):
    """The shard files with pairs in them (more shards than pairs leaves some empty)."""
    files = sorted(out.glob(f"shard-*-of-{count}.jsonl"))
    return [file for file in files if file.stat().st_size > 0]


def run_match(ray, args):
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    done = {
        index
        for index in range(1, args.shards + 1)
        if (out / f"shard-{index}-of-{args.shards}.jsonl").exists()
    }
    todo = [index for index in range(1, args.shards + 1) if index not in done]
    if done:
        print(f"{len(done)} of {args.shards} shards already in {out}", flush=True)
    shard = ray.remote(num_cpus=1)(play_shard)
    parallel = args.parallel or max(1, int(ray.cluster_resources().get("CPU", 1)))
    start = time.monotonic()
    running = {}
    merged = None
    decided = None
    while todo or running:
        while todo and len(running) < parallel and not decided:
            index = todo.pop(0)
            ref = shard.remote(args.arbor, args.match_args, index, args.shards, os.getcwd())
            running[ref] = index
        if not running:
            break
        ready, _ = ray.wait(list(running), num_returns=1)
        index = running.pop(ready[0])
        try:
            lines = ray.get(ready[0])
        except Exception as error:  # the task's own error, raised again by Ray
            for ref in running:
                ray.cancel(ref)
            sys.exit(f"arbor_ray: shard {index} failed: {error}")
        path = out / f"shard-{index}-of-{args.shards}.jsonl"
        # Written whole under a temporary name: a shard file is complete or absent.
        partial = path.with_suffix(".part")
        partial.write_text(lines)
        partial.rename(path)
        done.add(index)
        files = finished_shards(out, args.shards)
        if not files:
            continue  # only shards without pairs so far
        merged = merge(args.arbor, files, args.sprt)
        elapsed = time.monotonic() - start
        head = merged.splitlines()[0]
        print(f"shard {index} done ({len(done)}/{args.shards}, {elapsed:.1f} s): {head}", flush=True)
        decided = verdict(merged) if args.sprt else None
        if decided and running:
            print(f"sprt: {decided}: cancelling {len(running)} running shards", flush=True)
            for ref in running:
                ray.cancel(ref)
            for ref in running:
                try:
                    ray.get(ref)
                except Exception:  # cancelled
                    pass
            running = {}
            todo = []
    if merged is None:
        files = finished_shards(out, args.shards)
        merged = merge(args.arbor, files, args.sprt) if files else "no pair played\n"
    print(merged, end="", flush=True)
    print(f"runner: {time.monotonic() - start:.1f} s", flush=True)


def run_solve(ray, args):
    with open(args.tasks, encoding="utf-8") as file:
        lines = file.readlines()
    numbered = [
        (number, line)
        for number, line in enumerate(lines, 1)
        if line.strip() and not line.lstrip().startswith("%")
    ]
    chunks = max(1, min(args.chunks, len(numbered)))
    # Dealt in turn, so hard positions that cluster in the file are spread.
    dealt = [numbered[index::chunks] for index in range(chunks)]
    chunk = ray.remote(num_cpus=1)(solve_chunk)
    start = time.monotonic()
    refs = [chunk.remote(args.arbor, args.hash, [line for _, line in part]) for part in dealt]
    results = []
    for part, ref in zip(dealt, refs):
        try:
            answers = ray.get(ref)
        except Exception as error:  # the task's own error, raised again by Ray
            sys.exit(f"arbor_ray: a solve chunk failed: {error}")
        if len(answers) != len(part):
            raise RuntimeError(f"a chunk of {len(part)} tasks gave {len(answers)} answers")
        for (number, _), answer in zip(part, answers):
            result = json.loads(answer)
            result["line"] = number
            results.append(result)
    results.sort(key=lambda result: result["line"])
    with open(args.out, "w", encoding="utf-8") as out:
        for result in results:
            out.write(json.dumps(result, separators=(",", ":")) + "\n")
    errors = sum(1 for result in results if "error" in result)
    elapsed = time.monotonic() - start
    print(
        f"solved {len(results) - errors} tasks, {errors} errors, in {elapsed:.1f} s "
        f"({chunks} chunks) -> {args.out}",
        flush=True,
    )


def write_whole(path, text):
    """Writes a file under a temporary name first: it is complete or absent."""
    partial = path.with_name(path.name + ".part")
    partial.write_text(text)
    partial.rename(path)


def run_shards(ray, args, task, task_args, todo, count, finished):
    """Runs `task(arbor, *task_args, index, count, threads, cwd)` for each shard index of
    `todo`: on Ray as one-CPU tasks, as many at once as the cluster has CPUs (or
    --parallel), else here one after another with all the cores; `finished(index,
    result, done)` as each ends. A failed shard cancels the others and exits."""
    cwd = os.getcwd()
    done = count - len(todo)
    if ray is None:
        threads = args.cpus or os.cpu_count() or 1
        for index in todo:
            done += 1
            finished(index, task(args.arbor, *task_args, index, count, threads, cwd), done)
        return
    remote = ray.remote(num_cpus=1)(task)
    parallel = args.parallel or max(1, int(ray.cluster_resources().get("CPU", 1)))
    todo = list(todo)
    running = {}
    while todo or running:
        while todo and len(running) < parallel:
            index = todo.pop(0)
            running[remote.remote(args.arbor, *task_args, index, count, 1, cwd)] = index
        ready, _ = ray.wait(list(running), num_returns=1)
        index = running.pop(ready[0])
        try:
            result = ray.get(ready[0])
        except Exception as error:  # the task's own error, raised again by Ray
            for ref in running:
                ray.cancel(ref)
            sys.exit(f"arbor_ray: shard {index} failed: {error}")
        done += 1
        finished(index, result, done)


def keep_campaign(out, campaign, what):
    """Makes the directory OUT of a sharded campaign and keeps its arguments there, so
    that its shards are never mixed with another's; exits if OUT holds another's."""
    out.mkdir(parents=True, exist_ok=True)
    record = out / "campaign.json"
    if record.exists():
        before = json.loads(record.read_text())
        if before != campaign:
            sys.exit(f"arbor_ray: {out} holds the shards of another {what} "
                     f"({json.dumps(before)}): give its arguments or another --out")
    else:
        write_whole(record, json.dumps(campaign) + "\n")


def run_selfplay(ray, args):
    out = Path(args.out)
    keep_campaign(out, {"shards": args.shards, "selfplay": args.selfplay_args}, "self-play campaign")
    count = args.shards
    shard_path = lambda index: out / f"shard-{index}-of-{count}.txt"  # noqa: E731
    todo = [index for index in range(1, count + 1) if not shard_path(index).exists()]
    if len(todo) < count:
        print(f"{count - len(todo)} of {count} shards already in {out}", flush=True)
    start = time.monotonic()

    def finished(index, text, done):
        write_whole(shard_path(index), text)
        lines = text.count("\n")
        elapsed = time.monotonic() - start
        print(f"shard {index} done ({done}/{count}, {elapsed:.1f} s): {lines} positions", flush=True)

    run_shards(ray, args, selfplay_shard, [args.selfplay_args], todo, count, finished)
    dataset = Path(args.dataset) if args.dataset else out / "selfplay.txt"
    parts = [shard_path(index).read_text() for index in range(1, count + 1)]
    write_whole(dataset, "".join(parts))
    positions = sum(part.count("\n") for part in parts)
    print(f"gathered {positions} positions from {count} shards into {dataset} "
          f"({time.monotonic() - start:.1f} s)", flush=True)


def run_label(ray, args):
    out = Path(args.out)
    keep_campaign(out, {"shards": args.shards, "train": args.train_args}, "labelling")
    count = args.shards
    shard_path = lambda index: out / f"shard-{index}-of-{count}.bin"  # noqa: E731
    todo = [index for index in range(count) if not shard_path(index).exists()]
    if len(todo) < count:
        print(f"{count - len(todo)} of {count} shards already in {out}", flush=True)
    start = time.monotonic()
    cwd = os.getcwd()
    threads = args.cpus or os.cpu_count() or 1

    def finished(index, journal, done):
        partial = shard_path(index).with_suffix(".part")
        partial.write_bytes(journal)
        os.replace(partial, shard_path(index))
        elapsed = time.monotonic() - start
        print(f"shard {index} done ({done}/{count}, {elapsed:.1f} s): {len(journal)} bytes", flush=True)

    run_shards(ray, args, label_shard, [args.train_args], todo, count, finished)
    with tempfile.TemporaryDirectory() as scratch:
        # The first journal is the one a run writes to: a new, empty one, since the
        # shards hold every job.
        journals = [Path(scratch) / "none.bin"] + [shard_path(index) for index in range(count)]
        command = [args.arbor, "train", *args.train_args, "--labels", str(args.labels),
                   "--no-fit", "--threads", str(threads)]
        for journal in journals:
            command += ["--label-journal", str(journal)]
        run_arbor(command, cwd=cwd)
    print(f"labels of {count} shards written to {args.labels} ({time.monotonic() - start:.1f} s)",
          flush=True)


def task_key(task):
    """What a task asks (as `arbor solve --jsonl --resume` matches it)."""
    return (task["position"], task.get("rule", "normal"), task.get("alpha"), task.get("beta"))


def answered_keys(path):
    """The tasks a results file answers; an unfinished last line is cut off."""
    if not path.exists():
        return set()
    data = path.read_bytes()
    complete = data.rfind(b"\n") + 1
    if complete < len(data):
        with open(path, "r+b") as file:
            file.truncate(complete)
        print(f"{path}: an unfinished last line was cut off", flush=True)
    keys = set()
    for line in data[:complete].decode("utf-8").splitlines():
        if line.strip():
            result = json.loads(line)
            if "error" not in result and result.get("depth") == "exact":
                keys.add(task_key(result))
    return keys


def run_campaign(ray, args):
    out = Path(args.dir)
    results = out / "results.jsonl"
    if not (out / "round-1.jsonl").exists():
        sys.exit(f"arbor_ray: no {out / 'round-1.jsonl'}: write it with arbor solve split FILE > it")
    chunk = ray.remote(num_cpus=1)(solve_chunk)
    start = time.monotonic()
    round_number = 1
    while (out / f"round-{round_number + 1}.jsonl").exists():
        round_number += 1
    while True:
        tasks_path = out / f"round-{round_number}.jsonl"
        lines = [line for line in tasks_path.read_text().splitlines() if line.startswith("{")]
        done = answered_keys(results)
        todo = [line + "\n" for line in lines if task_key(json.loads(line)) not in done]
        chunks = max(1, min(args.chunks, len(todo)))
        dealt = [todo[index::chunks] for index in range(chunks)] if todo else []
        refs = {chunk.remote(args.arbor, args.hash, part): part for part in dealt}
        round_start = time.monotonic()
        finished = 0
        while refs:
            ready, _ = ray.wait(list(refs), num_returns=1)
            part = refs.pop(ready[0])
            try:
                answers = ray.get(ready[0])
            except Exception as error:  # the task's own error, raised again by Ray
                for ref in refs:
                    ray.cancel(ref)
                sys.exit(f"arbor_ray: a solve chunk failed: {error}")
            if len(answers) != len(part):
                raise RuntimeError(f"a chunk of {len(part)} tasks gave {len(answers)} answers")
            with open(results, "a", encoding="utf-8") as file:
                file.write("".join(answer + "\n" for answer in answers))
            finished += len(part)
            print(f"round {round_number}: {finished}/{len(todo)} tasks "
                  f"({time.monotonic() - round_start:.1f} s)", flush=True)
        following = out / f"round-{round_number + 1}.jsonl"
        merged = run_arbor([args.arbor, "solve", "merge", str(tasks_path), str(results),
                            "--next", str(following)])
        print(merged, end="", flush=True)
        if not following.exists():
            break
        round_number += 1
    print(f"runner: {time.monotonic() - start:.1f} s", flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--address", help="a running cluster (`auto`, or HOST:6379); default: a local one")
    parser.add_argument("--cpus", type=int, help="CPUs of the local cluster (default: all)")
    parser.add_argument("--arbor", default=default_arbor(), help="the arbor binary (default: $ARBOR or target/release/arbor)")
    commands = parser.add_subparsers(dest="command", required=True)
    match = commands.add_parser("match", help="a sharded match with an early SPRT stop")
    match.add_argument("--shards", type=int, required=True, help="slices of the match's pairs")
    match.add_argument("--out", required=True, help="directory for the shards' JSON lines")
    match.add_argument("--sprt", help='e.g. "elo0=0 elo1=5 alpha=0.05 beta=0.05": stop when it decides')
    match.add_argument("--parallel", type=int, help="shards at once (default: the cluster's CPUs)")
    match.add_argument("match_args", nargs=argparse.REMAINDER, help="-- then arbor match options")
    solve = commands.add_parser("solve", help="a task file solved by arbor solve --jsonl")
    solve.add_argument("--tasks", required=True, help="task file: OBF lines or JSON objects")
    solve.add_argument("--out", required=True, help="results, one JSON line per task")
    solve.add_argument("--chunks", type=int, default=16, help="Ray tasks to split into")
    solve.add_argument("--hash", type=int, default=64, help="MiB per arbor process")
    selfplay = commands.add_parser("selfplay", help="arbor selfplay's games in shards, joined into one dataset file")
    selfplay.add_argument("--shards", type=int, required=True, help="blocks of the campaign's games")
    selfplay.add_argument("--out", required=True, help="directory for the shards' files")
    selfplay.add_argument("--dataset", help="the joined file (default: OUT/selfplay.txt)")
    selfplay.add_argument("--parallel", type=int, help="shards at once (default: the cluster's CPUs)")
    selfplay.add_argument("--local", action="store_true", help="without Ray: the shards one after another here")
    selfplay.add_argument("selfplay_args", nargs=argparse.REMAINDER, help="-- then arbor selfplay options")
    label = commands.add_parser("label", help="an arbor train labelling in shards, joined into one labels file")
    label.add_argument("--shards", type=int, required=True, help="shares of the labelling's jobs")
    label.add_argument("--out", required=True, help="directory for the shards' journals")
    label.add_argument("--labels", required=True, help="the labels file to write (arbor train --labels)")
    label.add_argument("--parallel", type=int, help="shards at once (default: the cluster's CPUs)")
    label.add_argument("--local", action="store_true", help="without Ray: the shards one after another here")
    label.add_argument("train_args", nargs=argparse.REMAINDER, help="-- then arbor train options")
    campaign = commands.add_parser("campaign", help="the rounds of an arbor solve split campaign")
    campaign.add_argument("--dir", required=True, help="holds round-1.jsonl (arbor solve split); results go here")
    campaign.add_argument("--chunks", type=int, default=64, help="Ray tasks per round at most")
    campaign.add_argument("--hash", type=int, default=256, help="MiB per arbor process")
    args = parser.parse_args(argv)
    if args.command == "selfplay":
        if args.selfplay_args[:1] == ["--"]:
            args.selfplay_args = args.selfplay_args[1:]
        if args.shards < 1:
            parser.error("--shards must be at least 1")
        if any(word.split("=")[0] in ("--shard", "--out", "--threads") for word in args.selfplay_args):
            parser.error("the runner sets --shard, --threads and --out; give --out to the runner")
    if args.command == "label":
        if args.train_args[:1] == ["--"]:
            args.train_args = args.train_args[1:]
        if args.shards < 1:
            parser.error("--shards must be at least 1")
        runner_sets = ("--label-shard", "--label-journal", "--labels", "--threads", "--no-fit", "--out")
        if any(word.split("=")[0] in runner_sets for word in args.train_args):
            parser.error("the runner sets --label-shard, --label-journal, --labels, --threads and "
                         "--no-fit; give --labels to the runner")
        args.labels = str(Path(args.labels).resolve())
    if args.command == "match":
        if args.match_args[:1] == ["--"]:
            args.match_args = args.match_args[1:]
        if args.shards < 1:
            parser.error("--shards must be at least 1")
        if any(word in ("--shard", "--jsonl", "--resume", "--sprt") for word in args.match_args):
            parser.error("the runner sets --shard and --jsonl; give --sprt to the runner")
    args.arbor = str(Path(args.arbor).resolve())
    if not Path(args.arbor).is_file():
        parser.error(f"no arbor binary at {args.arbor} (cargo build --release, or --arbor)")
    if args.command in ("selfplay", "label") and (args.local or not args.address):
        try:
            import ray  # noqa: F401
        except ImportError:
            args.local = True
            print("Ray is not installed: the shards are run here, one after another", flush=True)
        if args.local:
            try:
                (run_selfplay if args.command == "selfplay" else run_label)(None, args)
            except RuntimeError as error:  # arbor refused
                sys.exit(f"arbor_ray: {error}")
            return
    import ray

    if args.address:
        ray.init(address=args.address)
    else:
        ray.init(num_cpus=args.cpus, include_dashboard=False)
    try:
        if args.command == "match":
            run_match(ray, args)
        elif args.command == "selfplay":
            run_selfplay(ray, args)
        elif args.command == "label":
            run_label(ray, args)
        elif args.command == "campaign":
            run_campaign(ray, args)
        else:
            run_solve(ray, args)
    except RuntimeError as error:  # arbor refused (a merge of another match's files)
        sys.exit(f"arbor_ray: {error}")
    finally:
        ray.shutdown()


if __name__ == "__main__":
    sys.exit(main())
