#!/usr/bin/env bash
# Tier 3 (experiments/tier-3): the oracle-BC policy's eval, re-check while collecting, fine-tuning
# from the oracle-BC policy, temperature 0.5 from random init.
set -euo pipefail
cd "$(dirname "$0")/../.."
npm run build
out=experiments/tier-3/runs
demos=${TTI_DEMOS:-/tmp/tti-demos.json}
[ -f "$demos" ] || node dist/experiments/oracle-demos/demos.js "$demos" 8 5
node dist/experiments/bc-on-demos/measure.js "$demos" '{}' 8 auto runs/oracle-bc
ckpt=$(ls -d runs/oracle-bc/v* | tail -1)
node bin/tti-run eval --checkpoint "$ckpt" --split test --json > "$out/eval-oracle-bc-test-split.json"
node bin/tti-run eval --checkpoint "$ckpt" --split test --min-try 3 --json > "$out/eval-oracle-bc-min-try-3-test-split.json"
for seed in 1 2; do
  node bin/tti-run eval --untrained --split test --min-try 2 --json --set seed=$seed \
    > "$out/untrained-eval-test-split-seed$seed-min-try-2.json"
done
run=experiments/preset-run.sh
$run tier-3 qT1 --eval-name qT1-min-try-2 --eval-args "--min-try 2" --set seed=1 --set min_try=2 --set eval_min_try=2
$run tier-3 qT2 --eval-name qT2-min-try-2 --eval-args "--min-try 2" --set seed=2 --set min_try=2 --set eval_min_try=2
$run tier-3 qBC --eval-name qBC-finetune-oracle-bc --set "model.checkpoint=$ckpt"
$run tier-3 qBCt05 --eval-name qBCt05-finetune-oracle-bc-temp-0.5 --set "model.checkpoint=$ckpt" --set temperature=0.5
$run tier-3 qV1 --eval-name qV1-temp-0.5 --set seed=1 --set temperature=0.5
