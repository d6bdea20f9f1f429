#!/usr/bin/env bash
# Measured with the baseline policy (hand-made features + MLP), whose code left at d2ca80e: this
# runs the study's own reproduce.sh at bcffb8a, the last commit with it (≈15 minutes a run).
set -euo pipefail
cd "$(dirname "$0")/../.."
experiments/at-commit.sh bcffb8a experiments/sampling/reproduce.sh "$@"
