#!/usr/bin/env bash
# TTI's horizon ablation with the token policy and stop probes, three seeds (≈1 hour a seed on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/../.."
npm run build
for seed in 1 2 3; do
  node dist/experiments/horizon/run.js --preset quick --budget-steps 6000 --eval-limit 78 \
    --set eval_every=1000 --set seed=$seed --runs-dir runs/horizon-s$seed --out runs/horizon-s$seed
done
