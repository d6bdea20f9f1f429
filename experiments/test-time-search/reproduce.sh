#!/bin/bash
# Test-time search against greedy (and TTI's re-check) at their env steps. Run from the repository
# root after `npm run build`. CK: a stand-ins checkpoint (e.g. the last of
# `tti-run train --config configs/miniwob-standins.yaml --set task_sampling=unsolved --run-dir runs/o-s0`).
set -e
mkdir -p runs/tts
CK=${CK:?set CK to a stand-ins checkpoint folder}
S="--config configs/miniwob-standins.yaml --set task_sampling=unsolved"
node bin/tti-run eval --checkpoint "$CK" $S --json --out-dir runs/tts/st-greedy > runs/tts/st-greedy.json
for B in 10 20; do
  node bin/tti-run eval --checkpoint "$CK" $S --search branch --budget $B --json --out-dir runs/tts/st-b$B > runs/tts/st-b$B.json
  node experiments/test-time-search/analyze.mjs runs/tts/st-b$B
done
# MiniArena: the oracle-pretrained policy, the quick preset's 78 test tasks
node bin/tti-run pretrain --demos oracle --split train --train-per-template 22 --run-dir runs/tts/pre
node bin/tti-run eval --run-dir runs/tts/pre --split test --limit 78 --json --out-dir runs/tts/ma78-greedy > runs/tts/ma78-greedy.json
node bin/tti-run eval --run-dir runs/tts/pre --split test --limit 78 --min-try 2 --json --out-dir runs/tts/ma78-mt2 > runs/tts/ma78-mt2.json
node bin/tti-run eval --run-dir runs/tts/pre --split test --limit 78 --search branch --budget 20 --json --out-dir runs/tts/ma78-b20 > runs/tts/ma78-b20.json
node experiments/test-time-search/analyze.mjs runs/tts/ma78-b20
