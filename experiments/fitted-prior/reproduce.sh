#!/usr/bin/env bash
# A prior fitted to the oracle's train demos (model.prior), from random init: the quick preset,
# seeds 1-3, each evaluated on the whole test split; the runs without it are
# experiments/stop-probes' c1-c3 (the same code otherwise). From the repository root.
set -euo pipefail
npm run build
# the prior: 35 numbers fitted by maximum likelihood to the oracle's 712 train demos
node dist/experiments/policy/record-demos.js runs/fitted-prior-demos.jsonl train
node dist/experiments/policy/fit-prior.js runs/fitted-prior-demos.jsonl "" runs/fitted-prior.json
# (prior-oracle-train.json is that file rounded to three decimals)
for s in 1 2 3; do
  experiments/preset-run.sh fitted-prior fp$s --set seed=$s \
    --set model.prior=experiments/fitted-prior/prior-oracle-train.json
done
for s in 1 2 3; do
  experiments/stop-probes/counts.py --unshown "$(ls -d runs/fp$s/evals/*/ | tail -1)"
  experiments/stop-probes/kept.py runs/fp$s
done
# with main's kept-trajectory cut (learner.cut_detours, default since 10231f7): fpc1-fpc3
for s in 1 2 3; do
  experiments/preset-run.sh fitted-prior fpc$s --set seed=$s \
    --set model.prior=experiments/fitted-prior/prior-oracle-train.json
  experiments/stop-probes/counts.py --unshown "$(ls -d runs/fpc$s/evals/*/ | tail -1)"
  experiments/stop-probes/kept.py runs/fpc$s
done
