#!/usr/bin/env bash
# Stop probes from random init: the quick preset on MiniArena (configs/miniarena.yaml turns
# collect.stop_probes on), seeds 1-3, each evaluated on the whole test split; one run without them;
# and the evidence rule on the oracle's train demos. From the repository root.
set -euo pipefail
npm run build
for s in 1 2 3; do
  experiments/preset-run.sh stop-probes p$s --set seed=$s
done
experiments/preset-run.sh stop-probes n1 --set seed=1 --set collect.stop_probes=false
node dist/experiments/policy/record-demos.js runs/stop-probes-demos.jsonl train
node dist/experiments/stop-probes/evidence.js runs/stop-probes-demos.jsonl

# Counts beside their subject (2026-11-29): seeds 1-3 of this code (c) and of the commit before it
# (b, 0635b58, in a worktree: at-commit.sh), then the guesses and what collection kept.
for s in 1 2 3; do
  experiments/preset-run.sh stop-probes c$s --set seed=$s
done
experiments/at-commit.sh 0635b58 bash -c 'for s in 1 2 3; do experiments/preset-run.sh stop-probes b$s --set seed=$s; done'
before=${TTI_WORKTREES:-/tmp}/tti-at-0635b58/runs
for d in runs/c1 runs/c2 runs/c3 "$before"/b1 "$before"/b2 "$before"/b3; do
  experiments/stop-probes/counts.py --unshown "$(ls -d "$d"/evals/*/ | tail -1)"
  experiments/stop-probes/kept.py "$d"
done
