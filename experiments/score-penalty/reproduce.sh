#!/usr/bin/env bash
# The loop without a browser, with and without the score penalty (experiments/score-penalty).
#   experiments/score-penalty/reproduce.sh [DEMOS.json]
set -euo pipefail
cd "$(dirname "$0")/../.."
demos=${1:-${TTI_DEMOS:-/tmp/tti-demos.json}}
npm run build
[ -f "$demos" ] || node dist/experiments/oracle-demos/demos.js "$demos" 8 5
sim=dist/experiments/score-penalty/online-sim.js
for seed in 1 2; do
  for penalty in 0 0.1 1; do
    node $sim "$demos" "{\"episodes\":240,\"iterations\":6,\"scorePenalty\":$penalty,\"seed\":$seed}"
  done
done
node $sim "$demos" '{"episodes":240,"iterations":6,"scorePenalty":0.1,"explore":0.3,"seed":2}'
