#!/usr/bin/env bash
# The untrained policy's chance to find a success (experiments/exploration).
#   experiments/exploration/reproduce.sh [DEMOS.json]
set -euo pipefail
cd "$(dirname "$0")/../.."
demos=${1:-${TTI_DEMOS:-/tmp/tti-demos.json}}
npm run build
[ -f "$demos" ] || node dist/experiments/oracle-demos/demos.js "$demos" 8 5
node dist/experiments/exploration/exploration.js "$demos" 0 1 3     # oracle-path probability by prior weight
node dist/experiments/exploration/rollout.js train 100 30 sample    # untrained episodes at T=1
node dist/experiments/exploration/rollout.js test 294 30 greedy     # untrained, greedy, whole test split
