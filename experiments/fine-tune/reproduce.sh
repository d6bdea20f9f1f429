#!/usr/bin/env bash
# TTI fine-tuning from an oracle-pretrained token policy, with and without its demos mixed into
# every iteration (learner.demos). One seed per call: reproduce.sh SEED [OUT]. ≈1.5 hours alone on
# 2 cores for seed 1 (recording the 712 demos ≈18 min, each arm ≈20 min, each eval ≈8 min).
set -euo pipefail
S=${1:-1}
OUT=${2:-runs/fine-tune}
cd "$(dirname "$0")/../.."
npm run build
# the task files' 712 train demos (the 1,651 default takes ≈40 minutes more to record)
node bin/tti-run pretrain --demos oracle --split train --train-per-template 22 --seed "$S" --run-dir "$OUT/pre-s$S"
node bin/tti-run eval --run-dir "$OUT/pre-s$S" --split test --json > "$OUT/pre-s$S-eval.json"
CK=$(ls -d "$OUT/pre-s$S/checkpoints/"v* | tail -n 1)
for arm in plain demos; do
  extra=()
  [ "$arm" = demos ] && extra=(--set "learner.demos=$OUT/pre-s$S/demos.jsonl")
  node bin/tti-run train --preset quick --run-dir "$OUT/$arm-s$S" --set "model.checkpoint=$CK" --set "seed=$S" \
    --set eval_every=10 --view log "${extra[@]}"
  node bin/tti-run eval --run-dir "$OUT/$arm-s$S" --split test --json > "$OUT/$arm-s$S-eval.json"
done
