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
# (b, 0635b58, in a worktree sharing node_modules), then the guesses and what collection kept.
for s in 1 2 3; do
  experiments/preset-run.sh stop-probes c$s --set seed=$s
done
here=$PWD
git worktree add /tmp/stop-probes-before 0635b58
(
  cd /tmp/stop-probes-before && ln -s "$here/node_modules" node_modules && npm run build
  for s in 1 2 3; do
    experiments/preset-run.sh stop-probes b$s --set seed=$s
    cp experiments/stop-probes/runs/*-b$s* "$here/experiments/stop-probes/runs/"
  done
)
for r in c1 c2 c3 /tmp/stop-probes-before/runs/b1 /tmp/stop-probes-before/runs/b2 /tmp/stop-probes-before/runs/b3; do
  d=$([ -d "runs/$r" ] && echo "runs/$r" || echo "$r")
  experiments/stop-probes/counts.py --unshown "$(ls -d "$d"/evals/*/ | tail -1)"
  experiments/stop-probes/kept.py "$d"
done
