#!/usr/bin/env bash
# Measured with the baseline policy (hand-made features + MLP), whose code and scripts left at
# d2ca80e: this runs the study's own reproduce.sh at bcffb8a, the last commit with them.
#   experiments/bc-on-demos/reproduce.sh [DEMOS.json]   (demos from experiments/oracle-demos)
set -euo pipefail
cd "$(dirname "$0")/../.."
experiments/at-commit.sh bcffb8a experiments/bc-on-demos/reproduce.sh "$@"
