#!/usr/bin/env bash
# Endgame benchmark: solves an OBF file (default: FFO #40-#59) RUNS times with
# `arbor solve`, single-threaded, and prints the per-position lines of the first run and
# the median total time.
# Usage: scripts/ffo-bench.sh [file=../shared/data/othello/fforum-40-59.obf] [runs=3]
set -euo pipefail
cd "$(dirname "$0")/.."
file=${1:-../shared/data/othello/fforum-40-59.obf}
runs=${2:-3}
if [ ! -f "$file" ]; then
    echo "skipped: $file is absent (reference data lives in ../shared)" >&2
    exit 0
fi
cargo build --release --quiet
totals=()
for run in $(seq "$runs"); do
    out=$(./target/release/arbor solve --hash 640 --threads 1 "$file")
    [ "$run" -eq 1 ] && echo "$out"
    total=$(echo "$out" | tail -n 1 | sed -E 's/.*time ([0-9.]+) s.*/\1/')
    echo "run $run: total $total s"
    totals+=("$total")
done
median=$(printf '%s\n' "${totals[@]}" | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}')
echo "median total over $runs runs: $median s"
