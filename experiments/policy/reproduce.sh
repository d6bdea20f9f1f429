#!/usr/bin/env bash
# The token policy's imitation of the oracle (README.md): BC on the oracle's demos of the 33 train
# templates, three seeds, each evaluated on the whole test split. From the repository root; the
# first run records the 1,651 train demos (≈40 minutes), each pretraining takes 3–5 minutes.
set -euo pipefail
npm run build
out=runs/experiments/policy
mkdir -p "$out"
for seed in 1 2 3; do
  node bin/tti-run pretrain --demos oracle --split train --seed $seed --run-dir runs/pre-s$seed
  node bin/tti-run eval --run-dir runs/pre-s$seed --split test --json > "$out/eval-pre-s$seed.json"
done
