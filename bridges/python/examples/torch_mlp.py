"""Example entry: the probe's dense network in plain PyTorch.

The same network as gpusheet-probe's (L layers of W x W weights, each a
matmul followed by GELU, tanh approximation, input (batch * context) x W), so
that a PyTorch run and a probe run of the same dimensions can be compared.
It needs nothing but PyTorch and no download; probe/gpu-check.sh uses it.

    python -m gpusheet_measure measure --entry bridges/python/examples/torch_mlp.py:run \\
      --output mlp.json --seed 1234 -- --batch 2 --context 128 --width 1024 --dtype float32

    ... -- --batch 2 --context 128 --width 1024 --train adam

Forward (default): model_load, inputs, then the Recorder's passes()
(cold_forward, warmup, warm_forward) under torch.inference_mode.

--train sgd|adam: model_load, inputs (input and target), forward (loss, the
activations kept for backward), backward, optimizer_step (Adam creates its
states here; then zero_grad(set_to_none=True)), second_step (all of it
again). The loss is 0.5 * sum((y - target)^2) / rows, as in the probe.
"""

import argparse


def _args(argv):
    p = argparse.ArgumentParser(prog="torch_mlp.py")
    p.add_argument("--batch", type=int, default=2)
    p.add_argument("--context", type=int, default=128)
    p.add_argument("--width", type=int, default=1024)
    p.add_argument("--layers", type=int, default=4)
    p.add_argument("--dtype", default="float32", choices=["float32", "float16", "bfloat16"])
    p.add_argument("--train", choices=["sgd", "adam"])
    return p.parse_args(argv)


def run(rec):
    import torch

    a = _args(rec.args)
    dtype = getattr(torch, a.dtype)
    device = torch.device(rec.backend.torch_device(rec.devices[0]))
    rows = a.batch * a.context
    for name in ("batch", "context", "width", "layers", "dtype"):
        rec.set_dimension(name, getattr(a, name))
    if a.train:
        rec.set_dimension("optimizer", a.train)
        rec.plan(["model_load", "inputs", "forward", "backward", "optimizer_step", "second_step"])

    with rec.phase("model_load"):
        layers = torch.nn.Sequential(*[
            torch.nn.Sequential(torch.nn.Linear(a.width, a.width, bias=False),
                                torch.nn.GELU(approximate="tanh"))
            for _ in range(a.layers)]).to(device=device, dtype=dtype)
        for m in layers.modules():
            if isinstance(m, torch.nn.Linear):
                torch.nn.init.uniform_(m.weight, -a.width ** -0.5, a.width ** -0.5)
        if a.train == "adam":
            opt = torch.optim.Adam(layers.parameters(), lr=1e-4)
        elif a.train == "sgd":
            opt = torch.optim.SGD(layers.parameters(), lr=1e-3)

    with rec.phase("inputs"):
        x = torch.empty(rows, a.width, device=device, dtype=dtype).uniform_(-1, 1)
        if a.train:
            target = torch.empty(rows, a.width, device=device, dtype=dtype).uniform_(-1, 1)

    if not a.train:
        def forward():
            with torch.inference_mode():
                return layers(x)
        rec.passes(forward)
        return

    def loss_of():
        y = layers(x)
        return 0.5 * ((y - target) ** 2).sum() / rows

    state = {}
    with rec.phase("forward"):
        state["loss"] = loss_of()
    with rec.phase("backward"):
        state.pop("loss").backward()
    with rec.phase("optimizer_step"):
        opt.step()
        opt.zero_grad(set_to_none=True)
    with rec.phase("second_step"):
        loss = loss_of()
        loss.backward()
        del loss
        opt.step()
        opt.zero_grad(set_to_none=True)
