#!/usr/bin/env bash
# Edits typed over later, imitated or not (README.md): the MiniWoB++ stand-ins, unsolved-first
# sampling, three seeds per arm. From the repository root; each run wants both cores ≈25 minutes.
set -euo pipefail
npm run build
for seed in 0 1 2; do
  for skip in false true; do
    node bin/tti-run train --config configs/miniwob-standins.yaml --run-dir runs/skip-$skip-s$seed \
      --set seed=$seed --set task_sampling=unsolved --set learner.skip_overwritten_edits=$skip
  done
  # what filtered BC would leave out of the arm that imitates everything
  node experiments/overwritten-edits/count.mjs runs/skip-false-s$seed/episodes
done
# the oracle's MiniArena demos: `tti-run pretrain --demos oracle --train-per-template 22 --run-dir runs/bc` records them in
# runs/bc/demos.jsonl (≈1 h); then: node experiments/overwritten-edits/count.mjs runs/bc/demos.jsonl
