#!/usr/bin/python3
"""Writes the --align fixtures (see README.md here) with msprobe's own dumper (PrecisionDebugger, level
"mix": module and API calls, forward and backward) on a small transformer run on the CPU.

Run with Debian's torch 1.13 and msprobe's python directory on the path (not installed), e.g.
  PYTHONPATH=<msprobe>/python:<stubs> /usr/bin/python3 tests/data/align/gen_align_dumps.py
where <stubs> holds stand-ins for einops and tqdm, which msprobe imports and the dumper does not use.
Deterministic: the same seeds on every side, so a call present on both sides records the same numbers.
`--measure DIR` writes larger runs of three other models into DIR instead (the false-pair figures of
docs/compare.md §3.8), none of them committed.
"""
import argparse
import concurrent.futures  # noqa: F401  (msprobe's json writer uses it without importing it)
import copy
import glob
import json
import os
import random
import re
import shutil
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F

if not hasattr(torch.Tensor, "untyped_storage"):  # torch 1.13: msprobe calls it
    torch.Tensor.untyped_storage = lambda self: self.storage().untyped()

HERE = os.path.dirname(os.path.abspath(__file__))


class Attention(nn.Module):
    def __init__(self, h, variant):
        super().__init__()
        self.qkv, self.proj, self.variant, self.scale = nn.Linear(h, 3 * h), nn.Linear(h, h), variant, h ** -0.5

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        a = q @ k.transpose(-2, -1) * self.scale
        if self.variant.get("extra_mul"):  # the target's one extra call, which changes no value
            a = torch.mul(a, 1.0)
            self.variant["extra_mul"] = False
        p = F.softmax(a, dim=-1) if self.variant.get("functional_softmax") else torch.softmax(a, dim=-1)
        return self.proj(p @ v)


class Block(nn.Module):
    def __init__(self, h, variant):
        super().__init__()
        self.norm1, self.attn, self.norm2 = nn.LayerNorm(h), Attention(h, variant), nn.LayerNorm(h)
        self.fc1, self.fc2, self.variant = nn.Linear(h, 2 * h), nn.Linear(2 * h, h), variant

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        h = self.fc1(self.norm2(x))
        h = h.tanh() if self.variant.get("tensor_tanh") else torch.tanh(h)
        return x + self.fc2(h)


class Net(nn.Module):
    def __init__(self, variant, h=8, layers=2):
        super().__init__()
        self.variant = variant
        self.embed = nn.Linear(6, h)
        self.layers = nn.ModuleList([Block(h, variant) for _ in range(layers)])
        self.head = nn.Linear(h, 3)

    def forward(self, x):
        if self.variant.get("early_calls"):  # the shift target's extra early calls, on the input only
            x.tanh()
            F.layer_norm(x, (6,))
        x = self.embed(x)
        for layer in self.layers:
            x = layer(x)
        return self.head(x)


def dump(model_fn, task, summary_mode, out_dir, steps=1, batch=(2, 4, 6), apis=()):
    """Runs msprobe's dumper on a model in a child process (its debugger is one per process) and moves
    step0's dump.json (and tensors) to out_dir."""
    pid = os.fork()
    if pid == 0:
        try:
            dump_here(model_fn, task, summary_mode, out_dir, steps, batch, apis)
        finally:
            os._exit(0)
    _, status = os.waitpid(pid, 0)
    assert status == 0 and os.path.exists(os.path.join(out_dir, "dump.json")), out_dir


def dump_here(model_fn, task, summary_mode, out_dir, steps, batch, apis):
    from msprobe.pytorch import PrecisionDebugger, seed_all
    work = tempfile.mkdtemp()
    cfg = {"task": task, "dump_path": os.path.join(work, "dump"), "rank": [], "step": [], "level": "mix",
           "async_dump": False, task: {"scope": [], "list": list(apis), "data_mode": ["all"]}}
    if task == "statistics":
        cfg[task]["summary_mode"] = summary_mode
    with open(os.path.join(work, "config.json"), "w") as f:
        json.dump(cfg, f)
    debugger = PrecisionDebugger(config_path=os.path.join(work, "config.json"))
    seed_all(1234, mode=False)
    torch.manual_seed(1234)
    model = model_fn()
    inputs = torch.Generator().manual_seed(7)
    for _ in range(steps):
        debugger.start(model=model)
        out = model(torch.randn(*batch, generator=inputs))
        out.float().pow(2).mean().backward()
        debugger.stop()
        debugger.step()
    src = glob.glob(os.path.join(work, "dump", "step0", "*"))[0]
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    with open(os.path.join(src, "dump.json")) as f:
        text = f.read()
    # The run's temporary directory, which the dump names, as a fixed path: the file is deterministic.
    text = re.sub(r'"dump_data_dir": "[^"]*"', '"dump_data_dir": "/home/user/align/dump_tensor_data"', text, count=1)
    with open(os.path.join(out_dir, "dump.json"), "w") as f:
        f.write(text)
    if os.path.isdir(os.path.join(src, "dump_tensor_data")):
        shutil.copytree(os.path.join(src, "dump_tensor_data"), os.path.join(out_dir, "dump_tensor_data"))
    shutil.rmtree(work)


# ---- the MindSpore side: the PyTorch run as MindSpore would name it (docs: README.md here) ----

MS_APIS = {  # PyTorch API → its MindSpore spelling
    "Functional.linear": "Functional.dense", "Torch.softmax": "Functional.softmax",
    "Tensor.transpose": "Tensor.swapaxes", "Torch.tanh": "Mint.tanh",
    "Functional.layer_norm": "MintFunctional.layer_norm",
}
MS_CLASSES = {"Linear": "Dense", "ModuleList": "CellList"}
MS_DTYPES = {"torch.float32": "Float32", "torch.float16": "Float16", "torch.bfloat16": "BFloat16",
             "torch.int64": "Int64", "torch.int32": "Int32", "torch.bool": "Bool"}


def ms_value(v, rng):
    """A tensor record as MindSpore dumps it, its statistics off by a relative 1e-5 (another device)."""
    if isinstance(v, list):
        return [ms_value(x, rng) for x in v]
    if not isinstance(v, dict):
        return v
    if v.get("type") == "torch.Tensor":
        out = {k: x for k, x in v.items() if k != "requires_grad"}
        out["type"], out["dtype"] = "mindspore.Tensor", MS_DTYPES.get(v["dtype"], v["dtype"])
        for stat in ("Max", "Min", "Mean", "Norm"):
            if isinstance(out.get(stat), float):
                out[stat] = out[stat] * (1 + 1e-5 * rng.uniform(-1, 1))
        return out
    return {k: ms_value(x, rng) for k, x in v.items()}


def ms_key(key, numbers):
    """(MindSpore key, truth key) for a PyTorch key; numbers: per MindSpore API, its forward calls so far."""
    parts = key.split(".")
    if parts[0] == "Module":
        cls = parts[-3] if parts[-2] in ("forward", "backward") else parts[-3]
        i = len(parts) - 3 if parts[-2] in ("forward", "backward", "parameters_grad") else len(parts) - 2
        parts[i] = MS_CLASSES.get(parts[i], parts[i])
        return ".".join(["Cell"] + parts[1:])
    api, n, direction = ".".join(parts[:-2]), parts[-2], parts[-1]
    ms_api = MS_APIS.get(api, api)
    if direction == "forward":
        numbers.setdefault(ms_api, {})[n + api] = len(numbers.get(ms_api, {}))
    return f"{ms_api}.{numbers[ms_api][n + api]}.{direction}"


def write_mindspore(pt_dir, ms_dir):
    with open(os.path.join(pt_dir, "dump.json")) as f:
        pt = json.load(f)
    rng, numbers = random.Random(5), {}
    ms = {"task": pt["task"], "level": pt["level"], "framework": "mindspore", "dump_data_dir": None, "data": {}}
    truth = {}
    for key, entry in pt["data"].items():
        new = ms_key(key, numbers)
        ms["data"][new] = ms_value(copy.deepcopy(entry), rng)
        truth[new] = key
    # A call only MindSpore makes (a cast its dense inserts), which pairs with nothing.
    extra = {"input_args": [ms["data"]["Functional.dense.0.forward"]["input_args"][0]], "input_kwargs": {},
             "output": [ms["data"]["Functional.dense.0.forward"]["input_args"][0]]}
    ms["data"] = {"Functional.cast.0.forward": extra, **ms["data"]}
    os.makedirs(ms_dir, exist_ok=True)
    with open(os.path.join(ms_dir, "dump.json"), "w") as f:
        json.dump(ms, f, indent=1)
    with open(os.path.join(ms_dir, "truth.json"), "w") as f:
        json.dump(truth, f, indent=1)


def fixtures():
    # The tensor dumps keep the softmax and mul calls only: a file per tensor adds up.
    for task, mode, sub, apis in (("statistics", "statistics", "statistics", ()), ("statistics", "md5", "md5", ()),
                                  ("tensor", None, "tensor", ("softmax", "mul"))):
        dump(lambda: Net({}), task, mode, os.path.join(HERE, "softmax", sub, "golden"), apis=apis)
        dump(lambda: Net({"functional_softmax": True, "extra_mul": True}), task, mode,
             os.path.join(HERE, "softmax", sub, "target"), apis=apis)
    dump(lambda: Net({}), "statistics", "statistics", os.path.join(HERE, "shift", "golden"))
    dump(lambda: Net({"tensor_tanh": True, "early_calls": True}), "statistics", "statistics",
         os.path.join(HERE, "shift", "target"))
    write_mindspore(os.path.join(HERE, "shift", "golden"), os.path.join(HERE, "mindspore", "target"))


# ---- larger runs for measuring false pairs (not committed) ----

class Lstm(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn, self.out = nn.LSTM(16, 32, num_layers=2, batch_first=True), nn.Linear(32, 5)

    def forward(self, x):
        return self.out(torch.relu(self.rnn(x)[0]))


class Cnn(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(*[nn.Sequential(nn.Conv2d(3 if i == 0 else 16, 16, 3, padding=1), nn.BatchNorm2d(16),
                                                  nn.ReLU()) for i in range(6)])
        self.head = nn.Linear(16, 10)

    def forward(self, x):
        return self.head(self.body(x).mean(dim=(2, 3)))


def measure(out):
    dump(lambda: Net({}, h=32, layers=8), "statistics", "statistics", os.path.join(out, "gpt"), steps=1, batch=(4, 16, 6))
    dump(Lstm, "statistics", "statistics", os.path.join(out, "lstm"), batch=(4, 12, 16))
    dump(Cnn, "statistics", "statistics", os.path.join(out, "cnn"), batch=(2, 3, 16, 16))


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--measure", help="write the larger runs for measuring false pairs into this directory")
    args = ap.parse_args()
    torch.set_num_threads(1)
    if args.measure:
        measure(args.measure)
    else:
        fixtures()
