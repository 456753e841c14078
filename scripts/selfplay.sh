#!/usr/bin/env bash
# Self-play of the engine against the random player with `arbor match`.
# Usage: scripts/selfplay.sh [games=10] [tc=10]   (tc: seconds per side per game)
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-10}
tc=${2:-10}
cargo build --release --quiet
arbor=target/release/arbor
$arbor match --engine name=arbor cmd="$arbor" --engine name=random cmd="$arbor --player random" \
    --tc "$tc" --random-openings 4 --rounds $(( (games + 1) / 2 )) --records selfplay-records.txt
