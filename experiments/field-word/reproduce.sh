#!/usr/bin/env bash
# The field-word scalar (README.md): what it marks on the oracle's MiniArena demos, then the
# MiniWoB++ stand-ins on seeds 0 and 1 (≈25 minutes a run). From the repository root.
set -euo pipefail
npm run build
demos=${1:-${TTI_DEMOS:-/tmp/tti-demos.json}}
[ -f "$demos" ] || node dist/experiments/oracle-demos/demos.js "$demos" 8 5
node dist/experiments/field-word/check.js "$demos"
for seed in 0 1; do
  node bin/tti-run train --config configs/miniwob-standins.yaml --run-dir runs/fw-s$seed --set seed=$seed
done
