#!/usr/bin/env bash
# Failed counts out of the draw (not in main): seed 1 of the quick preset with the patch applied,
# against experiments/cut-detours' cd1. From the repository root; restores main's code after.
set -euo pipefail
git apply experiments/failed-counts/failed-counts.patch
trap 'git apply -R experiments/failed-counts/failed-counts.patch && npm run build' EXIT
npm run build
experiments/preset-run.sh failed-counts fc1 --set seed=1
python3 experiments/stop-probes/kept.py runs/fc1
python3 experiments/cut-detours/answers.py runs/fc1 forum_user_post_count,tracker_count_assignee_milestone
