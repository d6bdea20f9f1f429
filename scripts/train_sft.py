#!/usr/bin/env python3
"""TTI's filtered-BC step for a chat model: a LoRA adapter trained with TRL's SFTTrainer.

The external learner (src/actors/roles/external-learner-role.ts) runs this once per iteration as
`learner.command` in configs/webarena_rl.yaml:

    python {project}/scripts/train_sft.py --data {data} --out {out} --base <model>

with the run directory as its working directory. `--data` is `tti-run export-sft`'s JSON lines
(src/export/sft.ts): one sample per kept step, `{"messages": [...], "metadata": {...}}`, the
conversation the policy saw and, last, the step's reply as the assistant turn. Images are
OpenAI-style `image_url` parts: absolute file paths (`learner.images: files`) or data URLs.

Each sample becomes TRL's conversational prompt-completion form: the prompt is every turn but the
last, the completion is the last (assistant) turn, and `completion_only_loss` masks the prompt, so
only the step's reply is trained on, as TTI trains (earlier replies in the history are context,
not targets). `image_url` parts become `{"type": "image"}` placeholders, in order, and the images
go in the `images` column. The adapter (adapter_config.json, adapter_model.safetensors) is written
into `--out`, which vLLM loads through POST /v1/load_lora_adapter. Exit 0 only when it is written:
the learner treats any other exit as a failed iteration.

`--tiny-random` builds a tiny randomly initialised LLaVA-style model from a config (nothing is
downloaded: the tokenizer is trained on the data's own text), saves it under `--out`/../tiny-base
so vLLM can serve it, and trains on it: the GPU smoke check (scripts/check-trainer-on-gpu.sh).
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import sys

# Only the assistant's reply is trained on; the LoRA goes on the language model's projections
# (vLLM applies LoRA there, not to the vision tower). Both names (language_model.model.layers and
# model.language_model.layers) occur across transformers versions; the regex takes either.
LORA_TARGETS = r".*language_model.*\.(q_proj|k_proj|v_proj|o_proj|gate_proj|up_proj|down_proj)"


class SampleError(ValueError):
    pass


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--data", required=True, help="tti-run export-sft's .jsonl")
    p.add_argument("--out", required=True, help="the adapter directory to write")
    p.add_argument("--base", default=None, help="the served base model (a hub id or a local directory)")
    p.add_argument("--init-adapter", default=None, help="an earlier adapter to go on training from")
    p.add_argument("--tiny-random", action="store_true", help="a tiny random model built here (smoke check)")
    p.add_argument(
        "--check-data", action="store_true", help="read and convert --data, print what TRL gets, train nothing"
    )
    p.add_argument("--epochs", type=float, default=1.0)
    p.add_argument("--max-steps", type=int, default=-1, help="a cap on optimiser steps (-1: the epochs)")
    p.add_argument("--lr", type=float, default=1e-5, help="TTI's lm_lr is 1e-6 for full fine-tuning; LoRA wants more")
    p.add_argument("--batch-size", type=int, default=1)
    p.add_argument("--grad-accum", type=int, default=8)
    p.add_argument("--max-length", type=int, default=16384, help="tokens; longer samples are cut from the right")
    p.add_argument("--lora-r", type=int, default=64, help="at most vLLM's --max-lora-rank")
    p.add_argument("--lora-alpha", type=int, default=128)
    p.add_argument("--lora-dropout", type=float, default=0.05)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args(argv)
    if not a.tiny_random and not a.check_data and a.base is None:
        p.error("--base is required (or --tiny-random)")
    return a


def image_ref(url: str, where: str) -> dict:
    """A datasets Image value: the file itself, or a data URL's bytes."""
    if url.startswith("data:"):
        head, _, payload = url.partition(",")
        if ";base64" not in head:
            raise SampleError(f"{where}: a data URL that is not base64")
        return {"bytes": base64.b64decode(payload), "path": None}
    path = url[len("file://") :] if url.startswith("file://") else url
    if not os.path.isabs(path):
        raise SampleError(f"{where}: image {url!r} is neither a data URL nor an absolute path")
    if not os.path.exists(path):
        raise SampleError(f"{where}: image file {path} does not exist")
    return {"bytes": None, "path": path}


def to_trl(sample: object, where: str) -> dict:
    """One export line as TRL's conversational prompt-completion sample with its images."""
    if not isinstance(sample, dict) or not isinstance(sample.get("messages"), list):
        raise SampleError(f"{where}: no messages list")
    messages = sample["messages"]
    if len(messages) < 2 or not isinstance(messages[-1], dict) or messages[-1].get("role") != "assistant":
        raise SampleError(f"{where}: the last turn must be the assistant's reply")
    images: list[dict] = []
    turns = []
    for i, m in enumerate(messages):
        at = f"{where} messages[{i}]"
        role = m.get("role") if isinstance(m, dict) else None
        if role not in ("system", "user", "assistant"):
            raise SampleError(f"{at}: role {role!r} is not system, user or assistant")
        content = m.get("content")
        if isinstance(content, str):
            parts = [{"type": "text", "text": content}]
        elif isinstance(content, list):
            parts = []
            for j, part in enumerate(content):
                kind = part.get("type") if isinstance(part, dict) else None
                if kind == "text" and isinstance(part.get("text"), str):
                    parts.append({"type": "text", "text": part["text"]})
                elif kind == "image_url" and isinstance(part.get("image_url"), dict):
                    images.append(image_ref(str(part["image_url"].get("url", "")), f"{at}.content[{j}]"))
                    parts.append({"type": "image"})
                else:
                    raise SampleError(f"{at}.content[{j}]: type {kind!r} is not text or image_url")
        else:
            raise SampleError(f"{at}: content must be a string or a list of parts")
        if role == "assistant" and any(p["type"] == "image" for p in parts):
            raise SampleError(f"{at}: an assistant turn with an image")
        turns.append({"role": role, "content": parts})
    return {"prompt": turns[:-1], "completion": turns[-1:], "images": images}


def read_samples(path: str) -> list[dict]:
    out = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, start=1):
            if not line.strip():
                continue
            where = f"{path}:{n}"
            try:
                sample = json.loads(line)
            except json.JSONDecodeError as e:
                raise SampleError(f"{where}: not JSON ({e.msg})") from e
            out.append(to_trl(sample, where))
    if not out:
        raise SampleError(f"{path}: no samples")
    return out


TINY_TEMPLATE = (
    "{%- for m in messages -%}"
    "<|{{ m['role'] }}|>"
    "{%- if m['content'] is string -%}{{ m['content'] }}"
    "{%- else -%}{%- for p in m['content'] -%}"
    "{%- if p['type'] == 'image' -%}<image>{%- elif p['type'] == 'text' -%}{{ p['text'] }}{%- endif -%}"
    "{%- endfor -%}{%- endif -%}</s>"
    "{%- endfor -%}"
    "{%- if add_generation_prompt -%}<|assistant|>{%- endif -%}"
)


def tiny_random(samples: list[dict], where: str):
    """A tiny LLaVA (CLIP vision tower, Llama text model) and its processor, built from configs."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import (
        CLIPImageProcessor,
        CLIPVisionConfig,
        LlamaConfig,
        LlavaConfig,
        LlavaForConditionalGeneration,
        LlavaProcessor,
        PreTrainedTokenizerFast,
    )

    special = ["<unk>", "<pad>", "<s>", "</s>", "<image>", "<|system|>", "<|user|>", "<|assistant|>"]
    texts = [p["text"] for s in samples for t in s["prompt"] + s["completion"] for p in t["content"] if p["type"] == "text"]
    bpe = Tokenizer(models.BPE(unk_token="<unk>"))
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    bpe.train_from_iterator(
        texts,
        trainers.BpeTrainer(
            vocab_size=1024, special_tokens=special, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
        ),
    )
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=bpe,
        unk_token="<unk>",
        pad_token="<pad>",
        bos_token="<s>",
        eos_token="</s>",
        additional_special_tokens=special[4:],
    )
    tokenizer.chat_template = TINY_TEMPLATE
    image_processor = CLIPImageProcessor(
        size={"shortest_edge": 32}, crop_size={"height": 32, "width": 32}, do_center_crop=True
    )
    # 32x32 images in 8x8 patches: 16 patch features per image (the CLS one is dropped: "default").
    processor = LlavaProcessor(
        image_processor=image_processor,
        tokenizer=tokenizer,
        patch_size=8,
        vision_feature_select_strategy="default",
        num_additional_image_tokens=1,
        chat_template=TINY_TEMPLATE,
        image_token="<image>",
    )
    config = LlavaConfig(
        vision_config=CLIPVisionConfig(
            hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=2,
            image_size=32, patch_size=8,
        ),
        text_config=LlamaConfig(
            # head_dim 32: a size every vLLM attention backend takes
            vocab_size=len(tokenizer), hidden_size=128, intermediate_size=256, num_hidden_layers=2,
            num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=32768,
            pad_token_id=tokenizer.pad_token_id, bos_token_id=tokenizer.bos_token_id,
            eos_token_id=tokenizer.eos_token_id,
        ),
        image_token_index=tokenizer.convert_tokens_to_ids("<image>"),
        vision_feature_select_strategy="default",
        vision_feature_layer=-1,
        image_seq_length=16,
    )
    model = LlavaForConditionalGeneration(config)
    # Saved, so that vLLM can serve the same base the adapter was trained on.
    os.makedirs(where, exist_ok=True)
    model.save_pretrained(where)
    processor.save_pretrained(where)
    return model, processor


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    out = os.path.abspath(args.out)
    try:
        samples = read_samples(os.path.abspath(args.data))
    except (OSError, SampleError) as e:
        print(f"train_sft: {e}", file=sys.stderr)
        return 2
    if args.check_data:
        # Needs no third-party package: what tti's tests run on an export.
        placeholders = sum(
            1 for s in samples for t in s["prompt"] + s["completion"] for p in t["content"] if p["type"] == "image"
        )
        print(
            json.dumps(
                {
                    "samples": len(samples),
                    "images": sum(len(s["images"]) for s in samples),
                    "placeholders": placeholders,
                    "completionRoles": sorted({t["role"] for s in samples for t in s["completion"]}),
                    "promptRoles": sorted({t["role"] for s in samples for t in s["prompt"]}),
                    "imageKinds": sorted({"path" if i["path"] else "bytes" for s in samples for i in s["images"]}),
                }
            )
        )
        return 0

    import torch
    from datasets import Dataset, Image, Sequence
    from peft import LoraConfig, PeftModel
    from transformers import AutoModelForImageTextToText, AutoProcessor
    from trl import SFTConfig, SFTTrainer

    work = os.path.join(os.path.dirname(out), "trainer")
    if args.tiny_random:
        model, processor = tiny_random(samples, os.path.join(os.path.dirname(out), "tiny-base"))
    else:
        dtype = torch.bfloat16 if torch.cuda.is_available() else torch.float32
        model = AutoModelForImageTextToText.from_pretrained(args.base, torch_dtype=dtype)
        processor = AutoProcessor.from_pretrained(args.base)

    peft_config = None
    if args.init_adapter is not None:
        model = PeftModel.from_pretrained(model, args.init_adapter, is_trainable=True)
    else:
        peft_config = LoraConfig(
            r=args.lora_r,
            lora_alpha=args.lora_alpha,
            lora_dropout=args.lora_dropout,
            target_modules=LORA_TARGETS,
            task_type="CAUSAL_LM",
        )

    dataset = Dataset.from_list(samples).cast_column("images", Sequence(Image()))
    config = SFTConfig(
        output_dir=work,
        num_train_epochs=args.epochs,
        max_steps=args.max_steps,
        learning_rate=args.lr,
        per_device_train_batch_size=args.batch_size,
        gradient_accumulation_steps=args.grad_accum,
        max_length=args.max_length,
        # Loss on the completion (the step's reply) only; the prompt's labels are -100.
        completion_only_loss=True,
        # Images are read and processed per batch by TRL's vision collator, not up front.
        dataset_kwargs={"skip_prepare_dataset": True},
        remove_unused_columns=False,
        bf16=torch.cuda.is_available() and not args.tiny_random,
        gradient_checkpointing=not args.tiny_random,
        logging_steps=1,
        save_strategy="no",
        report_to="none",
        seed=args.seed,
    )
    trainer = SFTTrainer(
        model=model,
        args=config,
        train_dataset=dataset,
        processing_class=processor,
        peft_config=peft_config,
    )
    result = trainer.train()
    os.makedirs(out, exist_ok=True)
    # The adapter alone (adapter_config.json, adapter_model.safetensors): what vLLM loads.
    trainer.model.save_pretrained(out)
    for name in ("adapter_config.json", "adapter_model.safetensors"):
        if not os.path.exists(os.path.join(out, name)):
            print(f"train_sft: {name} was not written to {out}", file=sys.stderr)
            return 1
    summary = {"samples": len(samples), "steps": result.global_step, "loss": result.training_loss, "out": out}
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
