#!/usr/bin/env bash
# Nucleus sampling and a temperature schedule against T=1 (experiments/sampling; controls cB1, cB2
# in experiments/quick-preset/reproduce.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
npm run build
run=experiments/preset-run.sh
$run sampling pA1 --eval-name pA1-top-p-0.95 --set seed=1 --set model.top_p=0.95
$run sampling sA1 --eval-name sA1-temp-schedule --set seed=1 --set 'temperature=[1,1,1,1,1,0.5]'
$run sampling sB2 --eval-name sB2-temp-schedule --set seed=2 --set 'temperature=[1,1,1,1,1,0.5]'
