#!/usr/bin/env bash
# The quick preset on the task suite before c9bd1ec (2026-11-22), with the baseline policy, at
# c9bd1ec's parent 7450e5e (≈15 minutes a run): the untrained policy, then qH, qJ and qK.
set -euo pipefail
cd "$(dirname "$0")/../.."
experiments/at-commit.sh 7450e5e bash -c '
  node bin/tti-run eval --untrained --split test --json > runs/untrained-eval-test-split.json
  for run in qH qJ qK; do
    node bin/tti-run train --preset quick --run-dir "runs/$run" --view log
    node bin/tti-run eval --run-dir "runs/$run" --split test --json > "runs/eval-$run-test-split.json"
  done'
