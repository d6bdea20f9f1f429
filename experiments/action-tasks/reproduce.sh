#!/usr/bin/env bash
# Action tasks from random init: the oracle's path probability under several priors, state probes
# in a quick-preset run, and searches on one task per action template. From the repository root.
set -euo pipefail
npm run build
node bin/tti-run pretrain --demos oracle --split train --train-per-template 22 --run-dir runs/action-tasks-demos --epochs 1
node dist/experiments/action-tasks/path-probability.js runs/action-tasks-demos/demos.jsonl
# a checkpoint that navigates: the quick preset with stop probes (configs/miniarena.yaml), seed 1
node bin/tti-run train --preset quick --set seed=1 --run-dir runs/action-tasks-p1
ck=$(realpath runs/action-tasks-p1/checkpoints)
search=(experiments/at-commit.sh e2cc483 node dist/experiments/action-tasks/progress-search.js)
"${search[@]}" 150 - 0.1 5 progress,visits
"${search[@]}" 200 "$ck" 0.1 2 progress,visits
"${search[@]}" 200 "$ck" 0.1 2 progress-url,visits-url
# state probes in TTI's episodes (the study stopped it after 4 iterations)
node bin/tti-run train --preset quick --set seed=1 --set collect.state_probes=true --run-dir runs/action-tasks-state
