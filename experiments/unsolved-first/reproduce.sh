#!/usr/bin/env bash
# Unsolved-first task sampling (README.md) against TTI's uniform draw on the MiniWoB++ stand-ins,
# three seeds each, with the untrained policy on the same test episodes. From the repository root.
# Each training run wants both cores for ≈25 minutes alone.
set -euo pipefail
npm run build
out=runs/experiments/unsolved-first
mkdir -p "$out"
for seed in 0 1 2; do
  node bin/tti-run eval --untrained --config configs/miniwob-standins.yaml --set seed=$seed --json \
    > "$out/untrained-seed$seed.json"
  for sampling in uniform unsolved; do
    # the first two rows of the README: GoBack still offered
    node bin/tti-run train --config configs/miniwob-standins.yaml --run-dir runs/$sampling-s$seed \
      --set seed=$seed --set task_sampling=$sampling --set env.miniwob.offer_navigation=true
    cp runs/$sampling-s$seed/metrics.jsonl "$out/metrics-$sampling-seed$seed.jsonl"
  done
  # the third: unsolved first, MiniWoB++'s action set without navigation (the default)
  node bin/tti-run train --config configs/miniwob-standins.yaml --run-dir runs/nonav-s$seed \
    --set seed=$seed --set task_sampling=unsolved
  cp runs/nonav-s$seed/metrics.jsonl "$out/metrics-nonav-seed$seed.jsonl"
done
