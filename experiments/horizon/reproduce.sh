#!/usr/bin/env bash
# TTI's horizon ablation at 2,000 env steps an arm (experiments/horizon; ≈1 hour on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/../.."
npm run build
node bin/tti-run experiment horizon --preset quick --budget-steps 2000 --eval-limit 40 \
  --set eval_every=1000 --out experiments/horizon/runs
node bin/tti-run eval --untrained --limit 40 --json > experiments/horizon/runs/untrained-eval-40.json
