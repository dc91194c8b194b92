#!/usr/bin/python3
"""Writes the -lm fixtures (see README.md here): one small PyTorch msprobe "mix" statistics dump
(module entries and API entries, with construct.json and stack.json) and a copy of the same run as
a MindSpore model whose layers are named differently would dump it, plus the layer-mapping yaml.

Run with Debian's torch: /usr/bin/python3 tests/data/layer_mapping/gen_layer_mapping_dumps.py
json.dump with indent=1 and no final newline, as msprobe writes. Deterministic.
"""
import json
import os

import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
torch.manual_seed(0)
W = {k: torch.randn(4, 4) for k in ("embed", "attn0", "mlp0", "attn1", "mlp1")}


def stats(t, framework):
    t = t.detach().float()
    if framework == "pytorch":
        head = {"type": "torch.Tensor", "dtype": "torch.float32"}
    else:
        head = {"type": "mindspore.Tensor", "dtype": "Float32"}
    return {**head, "shape": list(t.shape), "Max": t.max().item(), "Min": t.min().item(),
            "Mean": t.mean().item(), "Norm": t.norm().item(), "requires_grad": False}


class Recorder:
    def __init__(self, framework):
        self.framework = framework
        self.data, self.construct, self.stack = {}, {}, {}

    def module(self, name, parent, x, y):
        self.data[name] = {"input_args": [stats(x, self.framework)], "input_kwargs": {},
                           "output": [stats(y, self.framework)]}
        self.construct[name] = parent

    def api(self, name, parent, args, y, line):
        self.data[name] = {"input_args": [stats(a, self.framework) for a in args], "input_kwargs": {},
                           "output": [stats(y, self.framework)]}
        self.construct[name] = parent
        self.stack[name] = [f"File /home/user/lm/model.py, line {line}, in forward, \n y = op(x)"]

    def write(self, sub):
        d = os.path.join(HERE, sub)
        os.makedirs(d, exist_ok=True)
        dump = {"task": "statistics", "level": "mix", "framework": self.framework,
                "dump_data_dir": None, "data": self.data}
        stack = {str(i): [[k], v] for i, (k, v) in enumerate(self.stack.items())}
        for fname, obj in (("dump.json", dump), ("construct.json", self.construct), ("stack.json", stack)):
            with open(os.path.join(d, fname), "w") as f:
                json.dump(obj, f, indent=1)


def run(r, names):
    """names: the framework's spellings of every module and API of the same computation."""
    root, x = names["root"], torch.randn(2, 4, generator=torch.Generator().manual_seed(1))
    emb = F.linear(x, W["embed"])
    r.module(names["embed_mod"], None, x, emb)
    r.api(names["embed_api"], names["embed_mod"], [x, W["embed"]], emb, 10)
    h = emb
    for i in range(2):
        blk, attn, mlp = names["block"](i), names["attn"](i), names["mlp"](i)
        a = F.linear(h, W[f"attn{i}"])
        r.api(names["linear"](2 * i), attn, [h, W[f"attn{i}"]], a, 20)
        r.module(attn, blk, h, a)
        ra = F.relu(a)
        r.api(names["relu"](i), blk, [a], ra, 21)
        m = F.linear(h, W[f"mlp{i}"])
        r.api(names["linear"](2 * i + 1), mlp, [h, W[f"mlp{i}"]], m, 22)
        r.module(mlp, blk, h, m)
        if i == 1 and "extra" in names:  # a MindSpore-only cell: pairs with nothing
            r.module(names["extra"], mlp, m, m)
        out = ra + m
        r.api(names["add"](i), blk, [ra, m], out, 23)
        r.module(blk, root, h, out)
        h = out
    return h


PT = {"root": None,
      "embed_mod": "Module.embed.Linear.forward.0", "embed_api": "Functional.linear.0.forward",
      "block": lambda i: f"Module.layers.{i}.Block.forward.0",
      "attn": lambda i: f"Module.layers.{i}.attn.Linear.forward.0",
      "mlp": lambda i: f"Module.layers.{i}.mlp.Linear.forward.0",
      "linear": lambda n: f"Functional.linear.{n + 1}.forward",
      "relu": lambda i: f"Functional.relu.{i}.forward",
      "add": lambda i: f"Tensor.__add__.{i}.forward"}
MS = {"root": None,
      "embed_mod": "Cell.embedding.Dense.forward.0", "embed_api": "Functional.dense.0.forward",
      "block": lambda i: f"Cell.blocks.{i}.Block.forward.0",
      "attn": lambda i: f"Cell.blocks.{i}.attention.Dense.forward.0",
      "mlp": lambda i: f"Cell.blocks.{i}.ffn.Dense.forward.0",
      "linear": lambda n: f"MintFunctional.linear.{n}.forward",
      "relu": lambda i: f"Mint.relu.{i}.forward",
      "add": lambda i: f"Tensor.__add__.{i}.forward",
      "extra": "Cell.blocks.1.ffn.dropout.Dropout.forward.0"}

pt, ms = Recorder("pytorch"), Recorder("mindspore")
a, b = run(pt, PT), run(ms, MS)
assert torch.equal(a, b)
pt.write("pytorch")
ms.write("mindspore")
with open(os.path.join(HERE, "layer_mapping.yaml"), "w") as f:
    f.write("# MindSpore class -> {MindSpore child name: PyTorch child name}; TopLayer is the model root.\n"
            "TopLayer:\n  embedding: embed\n  blocks: layers\n"
            "Block:\n  attention: attn\n  ffn: mlp\n"
            "Dense:\n  dense: linear\n")
print("ok")
