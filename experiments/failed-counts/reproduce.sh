#!/usr/bin/env bash
# Failed counts out of the draw (not in main): seed 1 of the quick preset with the patch applied,
# against experiments/cut-detours' cd1. From the repository root. Runs in a worktree of e2cc483,
# where the patch applies, so this checkout is left as it is.
set -euo pipefail
patch=$PWD/experiments/failed-counts/failed-counts.patch
experiments/at-commit.sh e2cc483 bash -c "git apply '$patch' && npm run build &&
  experiments/preset-run.sh failed-counts fc1 --set seed=1"
run=${TTI_WORKTREES:-/tmp}/tti-at-e2cc483/runs/fc1
python3 experiments/stop-probes/kept.py "$run"
python3 experiments/cut-detours/answers.py "$run" forum_user_post_count,tracker_count_assignee_milestone
