#!/usr/bin/env bash
# Side-by-side endgame benchmark in one run: arbor, then another solver, on the same OBF
# file, single-threaded; prints both totals and the time ratio.
# Usage: scripts/ffo-compare.sh EDAX_BINARY [file=../shared/data/othello/fforum-40-59.obf]
# EDAX_BINARY: an Edax you built yourself (run from its directory: it reads data/eval.dat).
# Without Edax's trained weights (data/eval.dat) its move ordering is handicapped: say so
# beside any figure taken this way.
set -euo pipefail
cd "$(dirname "$0")/.."
edax=$(realpath "${1:?path to an Edax binary}")
file=$(realpath "${2:-../shared/data/othello/fforum-40-59.obf}")
cargo build --release --quiet
start=$(date +%s.%N)
./target/release/arbor solve --hash 640 --threads 1 "$file" | tail -n 1
arbor_s=$(echo "$(date +%s.%N) - $start" | bc)
start=$(date +%s.%N)
(cd "$(dirname "$edax")/.." && "$edax" -solve "$file" -n 1 -l 60 | tail -n 3)
edax_s=$(echo "$(date +%s.%N) - $start" | bc)
printf 'wall time: arbor %.1f s, edax %.1f s, arbor/edax %.2f\n' "$arbor_s" "$edax_s" "$(echo "$arbor_s / $edax_s" | bc -l)"
