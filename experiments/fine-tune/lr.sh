#!/usr/bin/env bash
# Does a smaller learning rate stop TTI's fine-tuning from losing what pretraining taught?
# lr.sh SEED [OUT]: pretrain on the task files' 712 train demos (init seed 1, one checkpoint for
# every seed), evaluate it on the 78 test tasks a quick-preset run of seed SEED evaluates on (the
# subset follows the run's seed), then for each lm_lr three quick-preset iterations from its
# checkpoint (run seed SEED), evaluated on those 78 after the third. ≈15 minutes to record the
# demos and 4 to train on them (once), ≈2 for the starting eval and ≈7 an arm, alone on 2 cores.
set -euo pipefail
S=${1:-1}
OUT=${2:-runs/fine-tune-lr}
LRS=${LRS:-"5e-3 1e-3 3e-4"}
cd "$(dirname "$0")/../.."
npm run build
PRE="$OUT/pre-s1"
node bin/tti-run pretrain --demos oracle --split train --train-per-template 22 --seed 1 --run-dir "$PRE"
[ -f "$OUT/pre-eval78-s$S.json" ] ||
  node bin/tti-run eval --run-dir "$PRE" --preset quick --set "seed=$S" --split test --limit 78 --json \
    > "$OUT/pre-eval78-s$S.json"
CK=$(ls -d "$PRE/checkpoints/"v* | tail -n 1)
for lr in $LRS; do
  grep -qs "\"eval\"" "$OUT/lr$lr-s$S/metrics.jsonl" && continue
  node bin/tti-run train --preset quick --run-dir "$OUT/lr$lr-s$S" --set "model.checkpoint=$CK" \
    --set "seed=$S" --set iterations=3 --set eval_every=3 --set "lm_lr=$lr" --view log
done
# LONG=1: the whole quick preset (10 iterations) with --preset finetune, and the pretrained policy
# and the run's last checkpoint on the whole test split (≈20 minutes, and ≈5 an eval).
if [ "${LONG:-0}" = 1 ]; then
  [ -f "$OUT/pre-whole.json" ] ||
    node bin/tti-run eval --run-dir "$PRE" --split test --json > "$OUT/pre-whole.json"
  node bin/tti-run train --preset quick --preset finetune --run-dir "$OUT/long-s$S" \
    --set "model.checkpoint=$CK" --set "seed=$S" --view log
  node bin/tti-run eval --run-dir "$OUT/long-s$S" --split test --json > "$OUT/long-s$S-whole.json"
fi
node experiments/fine-tune/count-lr.mjs "$OUT"
