#!/usr/bin/env bash
# BC on the oracle demos (experiments/bc-on-demos): coverage, then the network sizes of the table.
#   experiments/bc-on-demos/reproduce.sh [DEMOS.json]
set -euo pipefail
cd "$(dirname "$0")/../.."
demos=${1:-${TTI_DEMOS:-/tmp/tti-demos.json}}
npm run build
[ -f "$demos" ] || node dist/experiments/oracle-demos/demos.js "$demos" 8 5
m=dist/experiments/bc-on-demos/measure.js
node $m "$demos" coverage
node $m "$demos" '{"embedDim":0}' 8
node $m "$demos" '{"embedDim":8,"hidden":[32]}' 8
node $m "$demos" '{}' 8
node $m "$demos" '{"priorWeight":0}' 8
node $m "$demos" '{"embedDim":32,"hidden":[128,64]}' 6
