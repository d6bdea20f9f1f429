#!/usr/bin/env bash
# The quick preset on the old task suite (experiments/old-suite). These runs need code and tasks from
# before commit c9bd1ec (2026-11-22): check out an earlier commit, build it, and run there
#   tti-run train --preset quick --run-dir runs/qH            (qJ, qK the same; qG: --set rollout_size=128)
#   tti-run eval --run-dir runs/qH --split test --json
#   tti-run eval --untrained --split test --json [--set seed=N]
# On today's code this script refuses, rather than produce numbers from another suite.
set -euo pipefail
cd "$(dirname "$0")/../.."
if git merge-base --is-ancestor c9bd1ec HEAD 2>/dev/null; then
  echo "old-suite: this checkout has the current task suite (c9bd1ec); check out a commit before it" >&2
  exit 1
fi
npm run build
out=experiments/old-suite/runs
mkdir -p "$out"
node bin/tti-run eval --untrained --split test --json > "$out/untrained-eval-test-split.json"
for run in qH qJ qK; do
  node bin/tti-run train --preset quick --run-dir "runs/$run" --view log
  node bin/tti-run eval --run-dir "runs/$run" --split test --json > "$out/eval-$run-test-split.json"
  cp "runs/$run/metrics.jsonl" "$out/metrics-$run.jsonl"
done
