#!/usr/bin/env bash
# Search while collecting against TTI's episodes (README.md). From the repository root; runs one
# after the other (each wants both cores): ≈17 minutes for tier 3, ≈30 for each stand-in run.
set -euo pipefail
npm run build
experiments/at-commit.sh e2cc483 node dist/experiments/branch-search/search.js 200 1 30 5
node bin/tti-run train --config configs/miniwob-standins.yaml --run-dir runs/standins-none
node bin/tti-run train --config configs/miniwob-standins.yaml --run-dir runs/standins-search \
  --set collect.search=branch --set collect.search_budget=15 --set collect.search_burst=3 --set rollout_size=32
