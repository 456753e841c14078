#!/usr/bin/env bash
# The threat solver on the Gomoku forced-win puzzles in ../shared/data/gomoku/ (or the
# files given): per puzzle one line, then how many were solved within the time limit.
# Usage: scripts/gomoku-puzzles.sh [movetime ms = 1000] [files...]
set -euo pipefail
cd "$(dirname "$0")/.."
movetime=${1:-1000}
shift || true
files=("$@")
if [[ ${#files[@]} -eq 0 ]]; then
    files=(../shared/data/gomoku/vcf.txt ../shared/data/gomoku/vct.txt)
fi
cargo build --release --quiet
for file in "${files[@]}"; do
    echo "== $file"
    target/release/arbor puzzles "$file" --movetime "$movetime" | tail -1
done
