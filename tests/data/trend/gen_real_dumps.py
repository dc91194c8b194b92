#!/usr/bin/env python3
"""Real msprobe dumps for the trend database's tests: msprobe's own PrecisionDebugger on torch (1.13,
CPU) dumps a small model's training steps. real/ holds two, their dump.json and construct.json only
(data2db reads nothing else):
  r_l0_stat     gen_real_dumps.py --out r_l0_stat --level L0 --task statistics --steps 3 --accum 2 --nproc 2
  r_mix_tensor  gen_real_dumps.py --out r_mix_tensor --level mix --task tensor --steps 2 --accum 2
Needs torch and msprobe's python/ directory on PYTHONPATH (with stubs for what this machine lacks);
the tests never run it.

Usage: gen_real_dumps.py --out DIR --level L0|mix --task statistics|tensor [--steps 3] [--accum 2]
                         [--nproc 2] [--wrap 1|0] [--extreme 1]

Model: an embedding-like Linear, a ModuleList `layers` of Blocks (Linear, LayerNorm, GELU) and a head
Linear. msprobe records the descendants of the module given to start(), never the module itself:
--wrap 1 wraps the net in an Outer module (one root module per forward, so one micro step of
data2db's per forward); --wrap 0 passes the net (its children are all roots: several micro steps a
forward, as in msprobe's quick_start ResNet dump). --accum K runs K micro-batches an optimizer step.
Some tensors go through float16 and bfloat16 so those dtypes appear. --extreme 1 scales the last
step's input by 1e12 with one inf, for statistics past 1e9, inf and nan. --nproc N > 1 starts N ranks
(torch.multiprocessing, gloo) whose gradients are all_reduce'd (rank dirs, Distributed.* APIs).
"""
import argparse
import concurrent.futures  # noqa: F401  (msprobe's json_writer uses it without importing the submodule)
import json
import os
import sys

import torch
import torch.nn as nn

if not hasattr(torch.Tensor, "untyped_storage"):  # torch 1.13 shim (msprobe calls it)
    torch.Tensor.untyped_storage = lambda self: self.storage().untyped()


class Block(nn.Module):
    def __init__(self, h):
        super().__init__()
        self.norm = nn.LayerNorm(h)
        self.fc = nn.Linear(h, h)
        self.act = nn.GELU()

    def forward(self, x):
        y = self.fc(self.norm(x))
        # a float16 and a bfloat16 round trip (API level: Tensor.half / Tensor.bfloat16 / Tensor.float)
        y = y.half().float() + y.bfloat16().float()
        return x + self.act(y)


class Net(nn.Module):
    def __init__(self, h=8, n_layers=2):
        super().__init__()
        self.embed = nn.Linear(6, h)
        self.layers = nn.ModuleList([Block(h) for _ in range(n_layers)])
        self.head = nn.Linear(h, 3)

    def forward(self, x):
        x = self.embed(x)
        for layer in self.layers:
            x = layer(x)
        return self.head(x)


class Outer(nn.Module):
    """Single top-level child, so every forward has exactly one root module in construct.json."""

    def __init__(self):
        super().__init__()
        self.model = Net()

    def forward(self, x):
        return self.model(x)


def run(rank, args):
    world = args.nproc
    if world > 1:
        import torch.distributed as dist
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
        os.environ.setdefault("MASTER_PORT", str(29631 + args.port_offset))
        dist.init_process_group("gloo", rank=rank, world_size=world)
    from msprobe.pytorch import PrecisionDebugger, seed_all

    seed_all(1234, mode=False)
    torch.manual_seed(1234)
    cfg = {
        "task": args.task, "dump_path": args.out, "rank": [], "step": [], "level": args.level,
        "async_dump": False,
    }
    cfg[args.task] = {"scope": [], "list": [], "data_mode": ["all"]}
    if args.task == "statistics":
        cfg[args.task]["summary_mode"] = "statistics"
    cfg_path = os.path.join(os.path.dirname(os.path.abspath(args.out)), f"{os.path.basename(args.out)}_config_{rank}.json")
    with open(cfg_path, "w") as f:
        json.dump(cfg, f)
    debugger = PrecisionDebugger(config_path=cfg_path)

    model = Outer() if args.wrap else Net()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    g = torch.Generator().manual_seed(100 + rank)
    for step in range(args.steps):
        debugger.start(model=model)
        opt.zero_grad()
        for _ in range(args.accum):
            x = torch.randn(4, 6, generator=g)
            if args.extreme and step == args.steps - 1:
                x = x * 1e12
                x[0, 0] = float("inf")
            out = model(x)
            loss = out.float().pow(2).mean() / args.accum
            loss.backward()
        if world > 1:
            import torch.distributed as dist
            for p in model.parameters():
                if p.grad is not None:
                    dist.all_reduce(p.grad)
        opt.step()
        debugger.stop()
        debugger.step()
    if world > 1:
        import torch.distributed as dist
        dist.destroy_process_group()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--level", default="L0")
    ap.add_argument("--task", default="statistics")
    ap.add_argument("--steps", type=int, default=3)
    ap.add_argument("--accum", type=int, default=2)
    ap.add_argument("--nproc", type=int, default=1)
    ap.add_argument("--wrap", type=int, default=1)
    ap.add_argument("--extreme", type=int, default=0)
    ap.add_argument("--port_offset", type=int, default=0)
    args = ap.parse_args()
    torch.set_num_threads(1)
    if args.nproc > 1:
        import torch.multiprocessing as mp
        mp.spawn(run, args=(args,), nprocs=args.nproc, join=True)
    else:
        run(0, args)


if __name__ == "__main__":
    main()
