#!/usr/bin/python3
"""Writes two msprobe-format tensor dumps (target "npu", golden "bench") of int8 tensors, as quantised
models dump them, for msprobe's compare of int8 data (no rule of its own: float64 metrics).

Run with Debian's torch 1.13: /usr/bin/python3 gen_int8_dump.py [OUT_DIR]   (default: this directory)
Writes OUT_DIR/tensor/{npu,bench}/{dump.json,stack.json,construct.json,dump_tensor_data/*.pt} and the
same calls in statistics mode under OUT_DIR/stat, with ../moe/gen_moe_dump.py's dump writer.
Deterministic (fixed seed). Every statistic is a number (no None argument): pandas makes the NPU
max/min columns float64, so their integers print as floats.

Rows (Functional.quant_matmul / Tensor.to calls):
  quant.0  int8 activations and weights equal, int32 accumulators one step off, int8 output one
           quantisation step off in a few places, float32 scale equal.
  quant.1  int8 output saturated at -128/127 on the target where the golden is not.
  quant.2  an all-zero int8 output on both sides.
  quant.3  a 0-d int8 output (squeezed [1]) one step off.
  to.0     int8 on the target against uint8 on the golden (dtype message; metrics computed).
"""
import os
import shutil
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "moe"))
from gen_moe_dump import Dump  # noqa: E402  (same dump writer)

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    out_root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else HERE)
    for sub in ("tensor", "stat"):
        shutil.rmtree(os.path.join(out_root, sub), ignore_errors=True)
    g = torch.Generator().manual_seed(8)

    def ints(lo, hi, *shape, dtype=torch.int8):
        return torch.randint(lo, hi, shape, generator=g, dtype=dtype)

    dumps = [(Dump(os.path.join(out_root, sub, "npu"), task), Dump(os.path.join(out_root, sub, "bench"), task))
             for sub, task in (("tensor", "tensor"), ("stat", "statistics"))]

    def call(api, args, outs_npu, outs_bench):
        for npu, bench in dumps:
            npu.forward(api, args, {}, outs_npu)
            bench.forward(api, args, {}, outs_bench)

    x, w = ints(-128, 128, 4, 8), ints(-128, 128, 8, 6)
    acc = x.int() @ w.int()
    scale = torch.rand(6, generator=g) * 0.01
    y = torch.clamp(torch.round(acc.float() * scale), -128, 127).to(torch.int8)
    y_npu = y.clone()
    y_npu[0, :3] = torch.clamp(y_npu[0, :3].int() + 1, -128, 127).to(torch.int8)
    acc_npu = acc.clone()
    acc_npu[1, 1] += 1
    call("Functional.quant_matmul.0", [x, w, scale], [y_npu, acc_npu], [y, acc])

    y = ints(-100, 100, 3, 5)
    y_npu = y.clone()
    y_npu[0, 0], y_npu[2, 4] = 127, -128
    call("Functional.quant_matmul.1", [x, w, scale], [y_npu], [y])

    zero = torch.zeros(2, 3, dtype=torch.int8)
    call("Functional.quant_matmul.2", [x, w, scale], [zero], [zero.clone()])

    one = torch.tensor([42], dtype=torch.int8)
    call("Functional.quant_matmul.3", [x, w, scale], [one + 1], [one])

    u = ints(0, 120, 4, 4)
    call("Tensor.to.0", [u], [u.clone()], [u.to(torch.uint8)])

    for npu, bench in dumps:
        npu.write()
        bench.write()


if __name__ == "__main__":
    main()
