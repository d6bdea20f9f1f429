#!/usr/bin/env bash
# Filtered BC against AWR (learner.algorithm awr) on the MiniWoB++ stand-ins, seeds 0 and 1, the
# quick preset's schedule (README.md). From the repository root; ≈30 minutes a run alone.
set -euo pipefail
npm run build
out=runs/experiments/awr
mkdir -p "$out"
for seed in 0 1; do
  node bin/tti-run eval --untrained --config configs/miniwob-standins.yaml --set seed=$seed --json \
    > "$out/untrained-seed$seed.json"
  node bin/tti-run train --config configs/miniwob-standins.yaml --run-dir runs/bc-s$seed --set seed=$seed
  node bin/tti-run train --config configs/miniwob-standins.yaml --run-dir runs/awr-s$seed --set seed=$seed \
    --set learner.algorithm=awr
done
