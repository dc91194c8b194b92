#!/usr/bin/python3
"""Writes an msprobe L1 tensor dump (task "tensor") of one Functional.linear call whose float32 weight
holds two elements of 3.4e38, so torch's own float32 Mean and Norm of it overflow to inf although the
true mean (1.48e35) is finite and the true norm (4.81e38) is a double. The output's Norm overflows too
(its sum of squares passes float32's max while the norm itself, ~1e37, does not). The statistics are
recorded exactly as msprobe takes them: torch.max/min/mean/norm(t).item() in the tensor's dtype.
For the tests of `msprobe-dump verify`: the dump is intact, and a flipped byte in the weight must still
be caught (README.md here).

Run with Debian's torch: /usr/bin/python3 tests/data/verify_overflow/gen_overflow_dump.py
Format as tests/data/recompute/gen_recompute_dumps.py (docs/formats.md §1): json.dump(indent=1), no final
newline, tensors saved as torch.save(t.clone().contiguous().detach()). Deterministic output.
"""
import json
import math
import os
import shutil

import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
CASE = "overflow"
KEY = "Functional.linear.0.forward"
F32_MAX = torch.finfo(torch.float32).max
HUGE = 3.4e38  # rounds to float32 3.3999999521443642e38
HUGE_AT = [(3, 5), (40, 17)]  # weight elements set to HUGE


def record(t, name, tdir):
    torch.save(t.clone().contiguous().detach(), os.path.join(tdir, name + ".pt"))
    return {"type": "torch.Tensor", "dtype": str(t.dtype), "shape": list(t.shape),
            "Max": torch.max(t).item(), "Min": torch.min(t).item(),
            "Mean": torch.mean(t).item(), "Norm": torch.norm(t).item(),
            "requires_grad": t.requires_grad, "data_name": name + ".pt"}


def main():
    rank = os.path.join(HERE, CASE, "step0", "rank0")
    shutil.rmtree(os.path.join(HERE, CASE), ignore_errors=True)
    tdir = os.path.join(rank, "dump_tensor_data")
    os.makedirs(tdir)

    g = torch.Generator().manual_seed(17)
    x = torch.randn(4, 72, generator=g) * 0.01
    w = torch.randn(64, 72, generator=g) * 0.02
    for ij in HUGE_AT:
        w[ij] = HUGE
    b = torch.randn(64, generator=g) * 0.01
    y = F.linear(x, w, b)
    assert all(t.dtype == torch.float32 for t in (x, w, b, y))

    # The facts the tests rely on, from torch's float32 arithmetic on this CPU (torch 1.13).
    wd = w.double()
    assert torch.isinf(torch.mean(w)) and torch.mean(w) > 0  # float32 sum 6.8e38 > max: inf, then / n
    assert torch.isinf(torch.norm(w))                         # float32 sum of squares overflows
    assert math.isfinite(wd.mean().item()) and wd.sum().item() > F32_MAX
    assert wd.norm().item() > F32_MAX
    assert torch.isfinite(y).all() and torch.isinf(torch.norm(y))  # ‖y‖ < max, ‖y‖² > max
    assert y.double().norm().item() < F32_MAX < y.double().pow(2).sum().item()
    assert torch.isfinite(torch.mean(y))

    data = {KEY: {"input_args": [record(x, KEY + ".input.0", tdir), record(w, KEY + ".input.1", tdir),
                                 record(b, KEY + ".input.2", tdir)],
                  "input_kwargs": {},
                  "output": [record(y, KEY + ".output.0", tdir)]}}
    dump = {"task": "tensor", "level": "L1", "framework": "pytorch",
            "dump_data_dir": f"./{CASE}/step0/rank0/dump_tensor_data", "data": data}
    stack = {"0": [[KEY], ["File /home/user/overflow/model.py, line 9, in forward, \n y = F.linear(x, self.w, self.b)"]]}
    for name, obj in (("dump.json", dump), ("stack.json", stack), ("construct.json", {})):
        with open(os.path.join(rank, name), "w") as f:
            json.dump(obj, f, indent=1)  # msprobe's settings: indent 1, no trailing newline
    for a in data[KEY]["input_args"] + data[KEY]["output"]:
        print(a["data_name"], a["Max"], a["Min"], a["Mean"], a["Norm"])


if __name__ == "__main__":
    main()
