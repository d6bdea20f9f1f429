#!/usr/bin/env bash
# A prior fitted to the oracle's train demos (model.prior), from random init: the quick preset,
# seeds 1-3, each evaluated on the whole test split, before and with main's kept-trajectory cut;
# the runs without it are experiments/stop-probes' c1-c3 and experiments/cut-detours' cd1-cd3.
# From the repository root.
set -euo pipefail
npm run build
out=runs/experiments/fitted-prior
mkdir -p "$out"
# the prior: 35 numbers fitted by maximum likelihood to the oracle's 712 train demos
node dist/experiments/policy/record-demos.js runs/fitted-prior-demos.jsonl train
node dist/experiments/policy/fit-prior.js runs/fitted-prior-demos.jsonl "" "$out/fitted.json"
# the runs used that file rounded to three decimals:
cat > "$out/prior-oracle-train.json" <<'JSON'
{"kindWeights": {"click": 1.814, "type": 5.266, "hover": 1, "select": 0.391, "answer": 0.583, "back": 0.318, "scroll": 1.447},
 "factWeights": {"self_in_task": 1.587, "task_in_self": -0.15, "context_in_task": -0.867, "task_in_context": 0.692,
  "argument_in_task": -1.201, "task_in_argument": 0.446, "label_in_task": 0.342, "context_inside_task": 0.858,
  "self_is_phrase": 0.57, "self_inside_task": 0.669, "argument_inside_task": -0.357, "acted_before": 1.271,
  "acted_here": -1.455, "name_acted": -0.892, "typed_before": -0.81, "value_is_argument": -0.306, "value_set": -0.979,
  "in_viewport": 1.122, "y": 0.064, "depth": 0.119, "rank": -0.913, "position": 1.249, "kind_count": 1.711,
  "argument_after_field_word": 0.243, "affix_of_task": 0.255, "ordinal_in_task": 0.364, "fresh": -0.092,
  "inside_is_most": 0.054}}
JSON
prior=(--set "model.prior=$out/prior-oracle-train.json")
# fp1-fp3 ran without the cut (before 10231f7); fpc1-fpc3 with it (main's default)
for s in 1 2 3; do
  experiments/preset-run.sh fitted-prior fp$s --set seed=$s "${prior[@]}" --set learner.cut_detours=false
  experiments/preset-run.sh fitted-prior fpc$s --set seed=$s "${prior[@]}"
done
# the kind weights alone, seed 3 (fk3)
sed -n '1p' "$out/prior-oracle-train.json" | sed 's/,$/}/' > "$out/prior-kinds-only.json"
experiments/preset-run.sh fitted-prior fk3 --set seed=3 --set "model.prior=$out/prior-kinds-only.json" --set learner.cut_detours=false
for r in fp1 fp2 fp3 fpc1 fpc2 fpc3 fk3; do
  experiments/stop-probes/counts.py --unshown "$(ls -d runs/$r/evals/*/ | tail -1)"
  experiments/stop-probes/kept.py runs/$r
done
