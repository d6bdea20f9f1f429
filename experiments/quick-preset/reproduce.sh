#!/usr/bin/env bash
# The quick preset on five init seeds, and the untrained policy of each seed (experiments/quick-preset).
set -euo pipefail
cd "$(dirname "$0")/../.."
npm run build
out=experiments/quick-preset/runs
for seed in 0 1 2 3 4; do
  suffix=$([ "$seed" = 0 ] && echo "" || echo "-seed$seed")
  node bin/tti-run eval --untrained --split test --json --set seed=$seed > "$out/untrained-eval-test-split-suite2$suffix.json"
done
node bin/tti-run eval --untrained --preset quick --limit 78 --json > "$out/untrained-eval-78-per-template-suite2.json"
run=experiments/preset-run.sh
$run quick-preset qM --set seed=0
$run quick-preset qN --set seed=1
$run quick-preset qO --set seed=2
$run quick-preset qP --set seed=3
$run quick-preset qQ --set seed=4
# the same preset again on later code: cB1, cB2 (controls of experiments/sampling), d1, d2, dA3
$run quick-preset cB1 --set seed=1
$run quick-preset cB2 --set seed=2
$run quick-preset d1 --set seed=1
$run quick-preset d2 --set seed=2
$run quick-preset dA3 --set seed=3
node bin/tti-run plot --run-dir runs/qM --out experiments/quick-preset --untrained-eval "$out/untrained-eval-78-per-template-suite2.json"
