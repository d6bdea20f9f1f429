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
