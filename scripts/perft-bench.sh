#!/usr/bin/env bash
# Perft speed benchmark: runs `arbor perft --depth D [game options]` (default 8x8
# Othello, single thread) RUNS times and prints each run's deepest-depth leaves/s and the
# median. Extra arguments go to `arbor perft`, for instance the five-in-a-row make/unmake
# speed: scripts/perft-bench.sh 3 5 --game gomoku --size 15 --opening free
# Usage: scripts/perft-bench.sh [depth=11] [runs=5] [arbor perft options]
set -euo pipefail
depth=${1:-11}
runs=${2:-5}
shift $(( $# < 2 ? $# : 2 ))
cd "$(dirname "$0")/.."
cargo build --release --quiet
rates=()
for run in $(seq "$runs"); do
    line=$(./target/release/arbor perft --depth "$depth" "$@" | tail -n 1)
    read -r _ leaves seconds rate <<<"$line"
    echo "run $run: depth $depth, $leaves leaves, $seconds s, $rate leaves/s"
    rates+=("$rate")
done
median=$(printf '%s\n' "${rates[@]}" | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}')
echo "median over $runs runs: $median leaves/s"
