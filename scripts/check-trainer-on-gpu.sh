#!/usr/bin/env bash
# The trainer's GPU smoke check (issue 54, item 7): a few SFT steps of a tiny randomly initialised
# model built from a config (nothing downloaded), then the adapter loaded into vLLM through
# POST /v1/load_lora_adapter and asked one chat completion. Needs node (for the export), python
# with scripts/requirements-train.txt, and vllm (0.11.0) on a machine with a GPU.
#   bash scripts/check-trainer-on-gpu.sh [WORK_DIR]
# Prints one line per stage and exits non-zero at the first that fails.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
work="${1:-${OUT:-/tmp}/tti-trainer-check}"
port="${VLLM_PORT:-8011}"
mkdir -p "$work"
log() { echo "[check-trainer] $*"; }

log "python packages"
python - <<'PY'
import importlib, sys
missing = [m for m in ("torch", "transformers", "trl", "peft", "datasets", "vllm") if importlib.util.find_spec(m) is None]
if missing:
    sys.exit(f"missing: {', '.join(missing)} (pip install -r scripts/requirements-train.txt vllm==0.11.0)")
import torch
print("torch", torch.__version__, "cuda", torch.cuda.is_available())
PY

log "an export to train on: two kept trajectories, real JPEG screenshots"
python - "$work/run/episodes/a" <<'PY'
import os, sys
from PIL import Image
os.makedirs(sys.argv[1], exist_ok=True)
for i in range(3):
    Image.new("RGB", (64, 48), (40 * i, 90, 160)).save(os.path.join(sys.argv[1], f"step-00{i}.jpg"), "JPEG")
PY
node "$here/dist/test/helpers/sft-fixture.js" "$work/run" "$work/export/train.jsonl"

log "the data as TRL gets it"
python "$here/scripts/train_sft.py" --check-data --data "$work/export/train.jsonl" --out "$work/output"

log "a few steps of a tiny random model"
python "$here/scripts/train_sft.py" --tiny-random --data "$work/export/train.jsonl" --out "$work/output" \
  --max-steps 4 --grad-accum 1 --lora-r 8 --lora-alpha 16 --max-length 4096 --lr 1e-3 | tee "$work/train.json"
test -f "$work/output/adapter_config.json" && test -f "$work/output/adapter_model.safetensors"

log "vLLM serves the tiny base with LoRA on"
VLLM_ALLOW_RUNTIME_LORA_UPDATING=True python -m vllm.entrypoints.openai.api_server \
  --model "$work/tiny-base" --served-model-name tiny --enable-lora --max-lora-rank 8 \
  --max-model-len 4096 --gpu-memory-utilization 0.3 --port "$port" --enforce-eager \
  >"$work/vllm.log" 2>&1 &
vllm_pid=$!
trap 'kill "$vllm_pid" 2>/dev/null || true' EXIT
for _ in $(seq 1 180); do
  curl -sf "http://127.0.0.1:$port/health" >/dev/null && break
  kill -0 "$vllm_pid" 2>/dev/null || { tail -30 "$work/vllm.log"; exit 1; }
  sleep 1
done
curl -sf "http://127.0.0.1:$port/health" >/dev/null || { tail -30 "$work/vllm.log"; exit 1; }

log "POST /v1/load_lora_adapter"
curl -sf -X POST "http://127.0.0.1:$port/v1/load_lora_adapter" -H 'content-type: application/json' \
  -d "{\"lora_name\": \"tti-v1\", \"lora_path\": \"$work/output\"}" | tee "$work/load.txt"
echo

log "a chat completion from the adapter"
curl -sf "http://127.0.0.1:$port/v1/chat/completions" -H 'content-type: application/json' \
  -d '{"model": "tti-v1", "max_tokens": 8, "messages": [{"role": "user", "content": "Task: find the price"}]}' \
  | tee "$work/completion.json"
echo
grep -q '"choices"' "$work/completion.json"
log "ok"
