#!/usr/bin/python3
"""A real msprobe tensor-mode pair for tensor_pair_bench (docs/compare.md §6): msprobe's own
PrecisionDebugger (task "tensor", level "L1": every API call's inputs and outputs as .pt files, forward
and backward) on a small transformer MLP stack run on the CPU twice, the golden run with the seeded
weights and the target run with every weight perturbed by a relative 1e-3. Defaults write about
2 x 0.7 GB in about 500 .pt files; the data is not committed.

Run with Debian's torch 1.13 and msprobe's python directory on the path (not installed), e.g.
  git -C <mirror> archive HEAD python | tar -x -C /tmp/msprobe_py
  PYTHONPATH=/tmp/msprobe_py/python /usr/bin/python3 bench/gen_tensor_pair.py [OUT]
The stand-ins for einops and tqdm (tests/data/msprobe_runs/stubs) are put on the path here.
OUT (default /tmp/msprobe_tensor_pair) receives target/ and golden/, each msprobe's
step0/proc<pid>/{dump.json,dump_tensor_data/}.
"""
import argparse
import concurrent.futures  # noqa: F401  (msprobe's json writer uses it without importing it)
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.append(os.path.join(HERE, "..", "tests", "data", "msprobe_runs", "stubs"))

import torch  # noqa: E402  (after the stubs' path, like msprobe below)
import torch.nn as nn  # noqa: E402

if not hasattr(torch.Tensor, "untyped_storage"):  # torch 1.13: msprobe calls it
    torch.Tensor.untyped_storage = lambda self: self.storage().untyped()


class Mlp(nn.Module):
    """LayerNorm, Linear(h, 4h), GELU, Linear(4h, h) and the residual add."""

    def __init__(self, h):
        super().__init__()
        self.norm, self.up, self.act, self.down = nn.LayerNorm(h), nn.Linear(h, 4 * h), nn.GELU(), nn.Linear(4 * h, h)

    def forward(self, x):
        return x + self.down(self.act(self.up(self.norm(x))))


def dump_side(args):
    from msprobe.pytorch import PrecisionDebugger, seed_all

    out = os.path.join(args.out, args.side)
    os.makedirs(out, exist_ok=True)
    cfg = {"task": "tensor", "dump_path": out, "rank": [], "step": [], "level": "L1", "async_dump": False,
           "tensor": {"scope": [], "list": [], "data_mode": ["all"]}}
    config = os.path.join(args.out, f"{args.side}_config.json")
    with open(config, "w") as f:
        json.dump(cfg, f)
    seed_all(1234, mode=False)
    torch.set_num_threads(1)
    model = nn.Sequential(*[Mlp(args.hidden) for _ in range(args.blocks)])
    if args.side == "target":  # the same seeded weights, each off by a relative 1e-3
        g = torch.Generator().manual_seed(7)
        with torch.no_grad():
            for p in model.parameters():
                p.mul_(1 + 1e-3 * torch.randn(p.shape, generator=g))
    x = torch.randn(args.tokens, args.hidden, generator=torch.Generator().manual_seed(11))
    debugger = PrecisionDebugger(config_path=config)
    debugger.start(model=model)
    model(x).pow(2).mean().backward()
    debugger.stop()
    debugger.step()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out", nargs="?", default="/tmp/msprobe_tensor_pair")
    ap.add_argument("--hidden", type=int, default=512)
    ap.add_argument("--tokens", type=int, default=896)
    ap.add_argument("--blocks", type=int, default=7)
    ap.add_argument("--side", choices=["target", "golden"])  # internal: one run per process
    args = ap.parse_args()
    if args.side:
        dump_side(args)
        return
    for side in ("golden", "target"):  # msprobe's debugger is a process-wide singleton
        subprocess.run([sys.executable, os.path.abspath(__file__), args.out, "--hidden", str(args.hidden),
                        "--tokens", str(args.tokens), "--blocks", str(args.blocks), "--side", side], check=True)
    for side in ("target", "golden"):
        files = total = 0
        for root, _, names in os.walk(os.path.join(args.out, side)):
            for name in names:
                if name.endswith(".pt"):
                    files += 1
                    total += os.path.getsize(os.path.join(root, name))
        print(f"{side}: {files} .pt files, {total / 1e9:.3f} GB")


if __name__ == "__main__":
    main()
