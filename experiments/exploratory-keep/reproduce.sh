#!/usr/bin/env bash
# How much an exploratory keep (collect.search_keep: exploratory) adds on MiniArena (README.md):
# a weakly pretrained policy (5 oracle demos a train template), one iteration of the quick preset
# with branch search, three seeds, each also with the default from_start. From the repository
# root; each run wants both cores for about 7 minutes (≈1 hour in all with the demos recorded).
set -euo pipefail
npm run build
out=runs/exploratory-keep
mkdir -p "$out"
# records the 712 task-file train demos (one epoch of training is the least the command does)
node bin/tti-run pretrain --demos oracle --split train --train-per-template 22 --epochs 1 --run-dir "$out/pre-all"
# five demos of each train template, from the oracle's recording of the task files' train tasks
node -e '
const fs = require("node:fs");
const seen = {};
const out = [];
for (const line of fs.readFileSync(process.argv[1], "utf8").split("\n")) {
  if (!line.trim()) continue;
  const d = JSON.parse(line);
  if (d.taskId >= 100000 || !d.success || (seen[d.template] ?? 0) >= 5) continue;
  seen[d.template] = (seen[d.template] ?? 0) + 1;
  out.push(line);
}
fs.writeFileSync(process.argv[2], out.join("\n") + "\n");
' "$out/pre-all/demos.jsonl" "$out/weak5.jsonl"
node bin/tti-run pretrain --demos "$out/weak5.jsonl" --epochs 8 --seed 1 --run-dir "$out/weak"
# the starting policy on the quick preset's 78 eval tasks, which every run's eval uses
node bin/tti-run eval --run-dir "$out/weak" --preset quick --split test --limit 78 --json > "$out/eval-weak.json"
search=(--preset quick --set iterations=1 --set collect.search=branch --set collect.search_budget=40
  --set collect.search_burst=4 --set model.checkpoint="$out/weak/checkpoints/v00000008")
for seed in 1 2 3; do
  node bin/tti-run train --run-dir "$out/from-start-s$seed" "${search[@]}" --set seed="$seed"
  node bin/tti-run train --run-dir "$out/exploratory-s$seed" "${search[@]}" --set seed="$seed" \
    --set collect.search_keep=exploratory
done
# the search's successes, the kept trajectories with dead ends, the eval episodes' GoBacks
node experiments/exploratory-keep/count.mjs "$out"/{from-start,exploratory}-s{1,2,3}
