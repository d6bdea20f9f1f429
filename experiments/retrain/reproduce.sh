#!/usr/bin/env bash
# Retrain a fresh policy on a finished run's kept trajectories, with and without cutting detours,
# and evaluate both on the whole test split (experiments/retrain):
#   experiments/retrain/reproduce.sh RUN_DIR [NAME]
set -euo pipefail
cd "$(dirname "$0")/../.."
run_dir=${1:?usage: reproduce.sh RUN_DIR [NAME]}
name=${2:-$(basename "$run_dir")}
npm run build
out=experiments/retrain/runs
node dist/experiments/retrain/retrain.js "$run_dir" "runs/retrain-$name" '{"updates":600}'
node bin/tti-run eval --checkpoint "$(ls -d "runs/retrain-$name"/v* | tail -1)" --split test --json \
  > "$out/retrain-$name-test-split.json"
node dist/experiments/retrain/retrain.js "$run_dir" "runs/retrain-$name-cut" '{"updates":600,"cutDetours":true}'
node bin/tti-run eval --checkpoint "$(ls -d "runs/retrain-$name-cut"/v* | tail -1)" --split test --json \
  > "$out/retrain-$name-cut-detours-test-split.json"
