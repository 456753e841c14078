#!/usr/bin/env bash
# SPRT of one build against another: stops as soon as the test decides.
# Usage: scripts/sprt.sh NEW_BINARY OLD_BINARY [tc=5+0.05] [elo0=0] [elo1=10]
# e.g. git worktree add ../old HEAD~1 && (cd ../old && cargo build --release)
#      scripts/sprt.sh target/release/arbor ../old/target/release/arbor
set -euo pipefail
new=${1:?new binary}
old=${2:?old binary}
tc=${3:-5+0.05}
elo0=${4:-0}
elo1=${5:-10}
"$new" match --engine name=new cmd="$new" --engine name=old cmd="$old" --tc "$tc" \
    --random-openings 8 --rounds 5000 --seed "$RANDOM" \
    --sprt elo0="$elo0" elo1="$elo1" alpha=0.05 beta=0.05
