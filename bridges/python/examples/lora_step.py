"""Example entry: one LoRA training step, with backward and update as phases.

    python -m gpusheet_measure measure \\
      --entry bridges/python/examples/lora_step.py:run \\
      --output lora-step.json --input-set fixed-text --seed 1234 \\
      --package transformers \\
      -- --model mistralai/Mistral-7B-v0.1 --dtype bfloat16 --batch 4 --seq 1024 --rank 16

LoRA is written here in plain PyTorch (no peft needed): every nn.Linear whose
name ends with one of --targets (default q_proj, v_proj) gets a trainable
low-rank update B·A (A: rank × in, B: out × rank, B starts at zero), scaled
by alpha / rank; the base weights are frozen. The trainable parameters and
the optimizer's states are therefore those of the adapter only.

Phases, in order:

| phase | what runs |
| --- | --- |
| model_load | the model onto the device, frozen, with its adapters |
| inputs | token ids and labels on the device |
| forward | forward pass and loss (activations kept for backward) |
| backward | loss.backward(): gradients of the adapters |
| optimizer_step | the first optimizer.step() (Adam creates its states here) and zero_grad |
| second_step | forward, backward, step and zero_grad again: the steady state |

--config CONFIG.json builds the model from its configuration with random
weights (same shapes and bytes); the file's revision says so.
"""

import argparse
import math


def _args(argv):
    p = argparse.ArgumentParser(prog="lora_step.py")
    p.add_argument("--model")
    p.add_argument("--config")
    p.add_argument("--dtype", default="bfloat16", choices=["float32", "float16", "bfloat16"])
    p.add_argument("--batch", type=int, default=1)
    p.add_argument("--seq", type=int, default=512)
    p.add_argument("--rank", type=int, default=16)
    p.add_argument("--alpha", type=float, default=32.0)
    p.add_argument("--targets", default="q_proj,v_proj")
    p.add_argument("--optimizer", default="adamw", choices=["adamw", "sgd"])
    p.add_argument("--lr", type=float, default=1e-4)
    p.add_argument("--gradient-checkpointing", action="store_true")
    a = p.parse_args(argv)
    if (a.model is None) == (a.config is None):
        p.error("give --model or --config")
    return a


def _add_lora(torch, model, targets, rank, alpha):
    nn = torch.nn

    class LoRALinear(nn.Module):
        def __init__(self, base):
            super().__init__()
            self.base = base
            w = base.weight
            self.a = nn.Parameter(torch.empty(rank, base.in_features, dtype=w.dtype, device=w.device))
            self.b = nn.Parameter(torch.zeros(base.out_features, rank, dtype=w.dtype, device=w.device))
            nn.init.kaiming_uniform_(self.a, a=math.sqrt(5))
            self.scale = alpha / rank

        def forward(self, x):
            return self.base(x) + (x @ self.a.t() @ self.b.t()) * self.scale

    for p in model.parameters():
        p.requires_grad_(False)
    swapped = 0
    for name, module in list(model.named_modules()):
        for child_name, child in list(module.named_children()):
            if isinstance(child, nn.Linear) and child_name in targets:
                setattr(module, child_name, LoRALinear(child))
                swapped += 1
    if not swapped:
        raise SystemExit("lora_step.py: no nn.Linear named %s in the model" % ",".join(targets))
    return swapped


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
    rec.plan(["model_load", "inputs", "forward", "backward", "optimizer_step", "second_step"])
    targets = [t for t in a.targets.split(",") if t]

    with rec.phase("model_load"):
        if a.config:
            cfg = transformers.AutoConfig.from_pretrained(a.config)
            model = transformers.AutoModelForCausalLM.from_config(cfg, torch_dtype=dtype)
        else:
            model = transformers.AutoModelForCausalLM.from_pretrained(
                a.model, torch_dtype=dtype, local_files_only=True)
        model = model.to(device)
        adapters = _add_lora(torch, model, targets, a.rank, a.alpha)
        if a.gradient_checkpointing:
            model.gradient_checkpointing_enable()
            model.enable_input_require_grads()
        model.train()
        params = [p for p in model.parameters() if p.requires_grad]
        if a.optimizer == "adamw":
            opt = torch.optim.AdamW(params, lr=a.lr)
        else:
            opt = torch.optim.SGD(params, lr=a.lr)

    trainable = sum(p.numel() for p in params)
    rec.set_dimension("batch", a.batch)
    rec.set_dimension("context", a.seq)
    rec.set_dimension("dtype", a.dtype)
    rec.set_dimension("lora_rank", a.rank)
    rec.set_dimension("lora_adapters", adapters)
    rec.set_dimension("trainable_parameters", trainable)
    rec.set_dimension("optimizer", a.optimizer)
    if a.gradient_checkpointing:
        rec.set_dimension("gradient_checkpointing", "on")
    if a.config:
        rec.revision = rec.revision or _random_revision(cfg, a.config)

    with rec.phase("inputs"):
        vocab = model.config.vocab_size
        g = torch.Generator().manual_seed(rec.seed if rec.seed is not None else 0)
        ids = torch.randint(0, vocab, (a.batch, a.seq), generator=g).to(device)
        labels = ids.clone()

    state = {}
    with rec.phase("forward"):
        state["loss"] = model(input_ids=ids, labels=labels).loss
    with rec.phase("backward"):
        state.pop("loss").backward()
    with rec.phase("optimizer_step"):
        opt.step()
        opt.zero_grad(set_to_none=True)
    with rec.phase("second_step"):
        loss = model(input_ids=ids, labels=labels).loss
        loss.backward()
        del loss
        opt.step()
        opt.zero_grad(set_to_none=True)
