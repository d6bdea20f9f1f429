#!/usr/bin/env bash
# The quick preset for 40 iterations on seeds 2 and 1 (experiments/long-budget; ≈50 minutes each).
set -euo pipefail
cd "$(dirname "$0")/../.."
npm run build
node bin/tti-run eval --untrained --preset quick --limit 78 --json --set seed=2 \
  > experiments/long-budget/runs/untrained-eval-78-per-template-suite2-seed2.json
run=experiments/preset-run.sh
$run long-budget qR40 --set seed=2 --set iterations=40 --set eval_every=10
$run long-budget qR40s1 --set seed=1 --set iterations=40 --set eval_every=10
