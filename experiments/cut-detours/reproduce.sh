#!/usr/bin/env bash
# Filtered BC on kept trajectories without their detours and tours (`learner.cut_detours`), from
# random init: the quick preset, seeds 1-3, each evaluated on the whole test split; the runs
# without it are experiments/stop-probes' c1-c3 (the same code otherwise). Then how many steps the
# cut removes from a run's kept trajectories, on MiniArena and on the MiniWoB++ stand-ins. From
# the repository root.
set -euo pipefail
npm run build
for s in 1 2 3; do
  experiments/preset-run.sh cut-detours cd$s --set seed=$s --set learner.cut_detours=true
done
for s in 1 2 3; do
  experiments/stop-probes/counts.py --unshown "$(ls -d runs/cd$s/evals/*/ | tail -1)"
  experiments/cut-detours/answers.py runs/cd$s forum_user_post_count,tracker_count_assignee_milestone,tracker_issue_assignee
  experiments/stop-probes/kept.py runs/cd$s
done
# the stand-ins: a run of main's defaults, then what the cut would remove from what it kept
node bin/tti-run train --config configs/miniwob-standins.yaml --run-dir runs/ws0 --set seed=0
node experiments/cut-detours/count.mjs runs/ws0 runs/cd1
# unsolved-first sampling with the cut, seeds 1 and 2
for s in 1 2; do
  experiments/preset-run.sh cut-detours cu$s --set seed=$s --set task_sampling=unsolved
  experiments/cut-detours/answers.py runs/cu$s forum_user_post_count,tracker_count_assignee_milestone,tracker_issue_assignee
  experiments/stop-probes/kept.py runs/cu$s
done
