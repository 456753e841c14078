#!/usr/bin/env bash
# The original exam's evaluation: 20 games against the random player (10 as each colour)
# at 5 minutes per side per game, scored per game as own discs minus the opponent's with
# empty squares to the winner (-64..64). Prints the match and the total (of 1,280).
# Usage: scripts/eval-vs-random.sh [tc=300] [opponent=random]
set -euo pipefail
cd "$(dirname "$0")/.."
tc=${1:-300}
opponent=${2:-random}
cargo build --release --quiet
arbor=target/release/arbor
out=$($arbor match --engine name=arbor cmd="$arbor" --engine name="$opponent" cmd="$arbor --player $opponent" \
    --tc "$tc" --random-openings 2 --rounds 10 --seed 2026 --records eval-records.txt --ggf eval-games.ggf | tee /dev/stderr)
total=$(echo "$out" | awk '$1 == "arbor" && $2 ~ /^[0-9]+$/ {print $10}')
echo "exam total score: $total of 1280"
