#!/usr/bin/env bash
# The temperature spread [1, 0.5] on five seeds, and controls without it (experiments/temperature-spread).
set -euo pipefail
cd "$(dirname "$0")/../.."
npm run build
run=experiments/preset-run.sh
for seed in 0 1 2 3 4; do
  $run temperature-spread "xS$seed" --set seed=$seed --set 'temperature_spread=[1,0.5]'
done
$run temperature-spread c0 --set seed=0
$run temperature-spread c4 --set seed=4
$run temperature-spread aS1 --set seed=1 --set 'temperature_spread=[1,0.5]'   # alone on the machine: its minutes
