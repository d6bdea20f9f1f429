#!/usr/bin/env bash
# One run of the quick preset, then its eval on the whole test split (294 tasks, greedy, h=30).
# From the repository root, after `npm run build`:
#   experiments/preset-run.sh STUDY RUN [--eval-name NAME] [--eval-args "..."] [train options ...]
# trains in runs/RUN and writes runs/experiments/STUDY/eval-NAME-test-split.json (NAME: RUN) and
# metrics-RUN.jsonl, outside git (run files stay out of the repository).
set -euo pipefail
study=$1 run=$2
shift 2
name=$run eval_args=()
while [ $# -gt 0 ]; do
  case $1 in
    --eval-name) name=$2; shift 2 ;;
    --eval-args) read -r -a eval_args <<< "$2"; shift 2 ;;
    *) break ;;
  esac
done
out=runs/experiments/$study
mkdir -p "$out"
node bin/tti-run train --preset quick --run-dir "runs/$run" --view log "$@"
node bin/tti-run eval --run-dir "runs/$run" --split test --json "${eval_args[@]}" > "$out/eval-$name-test-split.json"
cp "runs/$run/metrics.jsonl" "$out/metrics-$run.jsonl"
