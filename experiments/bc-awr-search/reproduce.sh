#!/usr/bin/env bash
# Filtered BC and AWR, each with and without branch search while collecting, on the MiniWoB++
# stand-ins at equal env steps (README.md). From the repository root; each run wants both cores for
# about 10 minutes, so the whole table (4 arms × 3 seeds) takes about 2 hours 15 minutes.
#   experiments/bc-awr-search/reproduce.sh [SEED...]   (default: 0 1 2)
set -euo pipefail
npm run build
out=runs/experiments/bc-awr-search
mkdir -p "$out"
search=(--set collect.search=branch --set collect.search_budget=15 --set collect.search_burst=3
  --set rollout_size=32)
seeds=("$@")
[ ${#seeds[@]} -gt 0 ] || seeds=(0 1 2)
for seed in "${seeds[@]}"; do
  for arm in bc-none awr-none bc-branch awr-branch; do
    # equal env steps: every arm stops at the first iteration that reaches 1,600 (replayed steps count)
    sets=(--set seed="$seed" --set task_sampling=unsolved --set budget_env_steps=1600 --set eval_every=1000)
    case $arm in
      awr-*) sets+=(--set learner.algorithm=awr) ;;
    esac
    case $arm in
      *-branch) sets+=("${search[@]}") ;;
    esac
    dir=runs/table/$arm-s$seed
    node bin/tti-run train --config configs/miniwob-standins.yaml --run-dir "$dir" "${sets[@]}"
    node bin/tti-run eval --run-dir "$dir" --json > "$out/eval-$arm-s$seed.json"
    cp "$dir/metrics.jsonl" "$out/metrics-$arm-s$seed.jsonl"
  done
done
node bin/tti-run eval --untrained --config configs/miniwob-standins.yaml --json > "$out/eval-untrained.json"
