#!/usr/bin/env bash
# Four general page facts (README.md) on the MiniWoB++ stand-ins and on MiniArena's oracle demos.
# From the repository root. Each stand-in run wants both cores for ≈25 minutes alone; BC on the
# demos ≈20 minutes alone; recording the demos ≈1 hour.
set -euo pipefail
npm run build
out=runs/experiments/page-facts
mkdir -p "$out"
for seed in 0 1; do
  node bin/tti-run eval --untrained --config configs/miniwob-standins.yaml --set seed=$seed --json \
    > "$out/untrained-seed$seed.json"
  node bin/tti-run train --config configs/miniwob-standins.yaml --run-dir runs/facts-s$seed --set seed=$seed
done
# MiniArena: BC on the oracle's demos of the train templates, step accuracy on the test demos
demos=$(realpath -m "${DEMOS:-runs/demos.jsonl}")
[ -f "$demos" ] || node dist/experiments/policy/record-demos.js "$demos" all 2
experiments/at-commit.sh e2cc483 node dist/experiments/policy/bc.js "$demos" '{"wordDropout":0.1}' 8 runs/facts-bc |
  tee "$out/bc.log"
