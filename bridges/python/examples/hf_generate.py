"""Example entry: a Hugging Face causal LM's generate, measured per phase.

Run one input per process (the guide: a new series in a fresh process),
once for each of the three protocol inputs:

    for input in usual long limit; do
      python -m gpusheet_measure measure \\
        --entry bridges/python/examples/hf_generate.py:run \\
        --output gen-$input.json --input-set $input --seed 1234 \\
        --package transformers --package accelerate --warmup 2 --repeats 3 \\
        -- --model mistralai/Mistral-7B-v0.1 --dtype bfloat16 --input $input
    done

The three inputs (prompt tokens + generated tokens, batch 1 by default):
usual 128 + 64, long 1024 + 128, limit: the model's window
(max_position_embeddings) minus 128, + 128. Change them with --prompt-tokens
and --new-tokens. The prompt is a fixed text repeated to the exact length,
so the shapes are what the file says.

--model is a local folder or a name in the local Hugging Face cache; with
--config CONFIG.json the model is built from its configuration with random
weights instead (same shapes and bytes, meaningless text: say so in the
file's revision, which this script does).

Phases: model_load (weights onto the device), inputs (token ids on the
device), then the Recorder's passes(): cold_forward (the first generate),
warmup, warm_forward. Generation is greedy with exactly --new-tokens new
tokens (min_new_tokens = max_new_tokens), under torch.inference_mode.
"""

import argparse

PRESETS = {"usual": (128, 64), "long": (1024, 128)}
PROMPT_TEXT = ("The measurement guide asks for three inputs: a usual one, a long but "
               "expected one, and one near the functional limit. ")


def _args(argv):
    p = argparse.ArgumentParser(prog="hf_generate.py")
    p.add_argument("--model", help="local folder or cached Hugging Face name")
    p.add_argument("--config", help="config.json: build the model with random weights")
    p.add_argument("--tokenizer", help="tokenizer folder or name (default --model)")
    p.add_argument("--dtype", default="bfloat16", choices=["float32", "float16", "bfloat16"])
    p.add_argument("--input", default="usual", choices=["usual", "long", "limit"])
    p.add_argument("--prompt-tokens", type=int)
    p.add_argument("--new-tokens", type=int)
    p.add_argument("--batch", type=int, default=1)
    a = p.parse_args(argv)
    if (a.model is None) == (a.config is None):
        p.error("give --model or --config")
    return a


def _random_revision(cfg, path):
    """What a random-weight run is, without the machine's folders."""
    import os
    shape = (getattr(cfg, "architectures", None) or [getattr(cfg, "model_type", "model")])[0]
    where = os.path.join(os.path.basename(os.path.dirname(os.path.abspath(path))),
                         os.path.basename(path))
    return "random weights in the shape of %s (%s)" % (shape, where)


def run(rec):
    import torch
    import transformers

    a = _args(rec.args)
    dtype = getattr(torch, a.dtype)
    device = torch.device(rec.backend.torch_device(rec.devices[0]))
    rec.plan(["model_load", "inputs", "cold_forward", "warmup", "warm_forward"])

    with rec.phase("model_load"):
        if a.config:
            cfg = transformers.AutoConfig.from_pretrained(a.config)
            model = transformers.AutoModelForCausalLM.from_config(cfg, torch_dtype=dtype)
        else:
            model = transformers.AutoModelForCausalLM.from_pretrained(
                a.model, torch_dtype=dtype, local_files_only=True)
        model = model.to(device).eval()

    cfg = model.config
    window = getattr(cfg, "max_position_embeddings", None)
    if a.input == "limit":
        if not window:
            raise SystemExit("hf_generate.py: the model states no max_position_embeddings; "
                             "give --prompt-tokens and --new-tokens")
        prompt, new = window - 128, 128
    else:
        prompt, new = PRESETS[a.input]
    prompt = a.prompt_tokens or prompt
    new = a.new_tokens or new
    rec.set_dimension("batch", a.batch)
    rec.set_dimension("prompt_tokens", prompt)
    rec.set_dimension("new_tokens", new)
    rec.set_dimension("context", prompt + new)
    rec.set_dimension("dtype", a.dtype)
    if a.config:
        rec.revision = rec.revision or _random_revision(cfg, a.config)

    with rec.phase("inputs"):
        if a.tokenizer or a.model:
            tok = transformers.AutoTokenizer.from_pretrained(a.tokenizer or a.model,
                                                             local_files_only=True)
            ids = tok(PROMPT_TEXT, add_special_tokens=False)["input_ids"]
        else:   # random weights: any token ids in the vocabulary will do
            ids = [(7 * i + 11) % cfg.vocab_size for i in range(64)]
        ids = (ids * (prompt // len(ids) + 1))[:prompt]
        input_ids = torch.tensor([ids] * a.batch, dtype=torch.long, device=device)
        mask = torch.ones_like(input_ids)

    pad = getattr(cfg, "pad_token_id", None)
    if pad is None:
        pad = getattr(cfg, "eos_token_id", None)
        if isinstance(pad, list):
            pad = pad[0]

    def generate():
        with torch.inference_mode():
            out = model.generate(input_ids, attention_mask=mask, max_new_tokens=new,
                                 min_new_tokens=new, do_sample=False, pad_token_id=pad)
        if out.shape[1] != prompt + new:   # the shapes the file states were processed
            raise RuntimeError("generated %d tokens, expected %d" % (out.shape[1] - prompt, new))
        return out

    rec.passes(generate)
