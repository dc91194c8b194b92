#!/usr/bin/env python3
"""Real multi-rank msprobe dumps for `msprobe-dump consistency` (docs/consistency.md): msprobe's own
PrecisionDebugger on torch (1.13, CPU) dumps a small data-parallel training run of N ranks (gloo).
Each rank sees its own data; what data parallelism makes identical is there to be checked:
  - the parameters are broadcast from rank 0 (Distributed.broadcast, world group);
  - every gradient is all_reduce'd over an explicit group of all ranks (Distributed.all_reduce with
    a recorded `group`), so each rank's parameters_grad (local) is its all_reduce's input;
  - the loss is all_gather'ed (Distributed.all_gather, the world group, no group recorded);
  - with 4 ranks or more, an activation is all_reduce'd within pairs {0,1}, {2,3}, ... (subgroups:
    equal within a pair, different between pairs);
  - the optimizer steps alike, so every module's parameters agree at the next forward.
Needs torch and msprobe's python/ directory on PYTHONPATH (with stubs for what this machine lacks:
einops, tqdm); the tests never run it, they read the dumps it wrote (README.md beside it).

Usage: gen_consistency_dumps.py --out DIR [--nproc 4] [--steps 2] [--task statistics|tensor]
                                [--summary-mode statistics|md5] [--port 29731]
"""
import argparse
import concurrent.futures  # noqa: F401  (msprobe's json_writer uses it without importing the submodule)
import json
import os

import torch
import torch.nn as nn

if not hasattr(torch.Tensor, "untyped_storage"):  # torch 1.13 shim (msprobe calls it)
    torch.Tensor.untyped_storage = lambda self: self.storage().untyped()


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 8)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(8, 3)

    def forward(self, x, pair_group):
        h = self.act(self.fc1(x))
        if pair_group is not None:
            import torch.distributed as dist
            shared = h.detach().clone()
            dist.all_reduce(shared, group=pair_group)  # equal within the pair
            h = h + 0.01 * shared
        return self.fc2(h)


def pair_groups(world):
    """Every rank creates every pair's group (torch.distributed's rule); returns this rank's."""
    import torch.distributed as dist
    groups = [dist.new_group([r, r + 1]) for r in range(0, world - 1, 2)]
    return lambda rank: groups[rank // 2] if rank // 2 < len(groups) else None


def config(args, rank):
    cfg = {"task": args.task, "dump_path": args.out, "rank": [], "step": [], "level": "mix", "async_dump": False}
    cfg[args.task] = {"scope": [], "list": [], "data_mode": ["all"]}
    if args.task == "statistics":
        cfg[args.task]["summary_mode"] = args.summary_mode
    path = os.path.join(os.path.dirname(os.path.abspath(args.out)), f"{os.path.basename(args.out)}_config_{rank}.json")
    with open(path, "w") as f:
        json.dump(cfg, f)
    return path


def run(rank, args):
    import torch.distributed as dist
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", str(args.port))
    world = args.nproc
    dist.init_process_group("gloo", rank=rank, world_size=world)
    everyone = dist.new_group(list(range(world)))
    pair_of = pair_groups(world) if world >= 4 else (lambda r: None)
    from msprobe.pytorch import PrecisionDebugger, seed_all

    seed_all(1234, mode=False)
    torch.manual_seed(1234 + rank)  # the ranks start different: the broadcast makes them agree
    debugger = PrecisionDebugger(config_path=config(args, rank))
    model = Net()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    g = torch.Generator().manual_seed(100 + rank)
    for step in range(args.steps):
        debugger.start(model=model)
        if step == 0:
            for p in model.parameters():
                dist.broadcast(p.data, src=0)
        opt.zero_grad()
        x = torch.randn(4, 6, generator=g)
        loss = model(x, pair_of(rank)).pow(2).mean()
        loss.backward()
        for p in model.parameters():
            dist.all_reduce(p.grad, group=everyone)
            p.grad = p.grad / world  # not in place: msprobe CRCs a CPU tensor in a thread, after the call returns
        losses = [torch.zeros(()) for _ in range(world)]
        dist.all_gather(losses, loss.detach())
        opt.step()
        debugger.stop()
        debugger.step()
    dist.destroy_process_group()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--nproc", type=int, default=4)
    ap.add_argument("--steps", type=int, default=2)
    ap.add_argument("--task", default="statistics", choices=["statistics", "tensor"])
    ap.add_argument("--summary-mode", default="statistics", choices=["statistics", "md5"])
    ap.add_argument("--port", type=int, default=29731)
    args = ap.parse_args()
    torch.set_num_threads(1)
    import torch.multiprocessing as mp
    mp.spawn(run, args=(args,), nprocs=args.nproc, join=True)


if __name__ == "__main__":
    main()
