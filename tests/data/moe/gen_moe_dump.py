#!/usr/bin/python3
"""Writes two msprobe-format PyTorch dumps (target "npu", golden "bench") of MoE calls whose outputs
hold scratch rows after the valid length, for msprobe's grouped-matmul dirty-data cleaning.

Run with Debian's torch 1.13: /usr/bin/python3 gen_moe_dump.py [OUT_DIR]   (default: this directory)
Writes OUT_DIR/{tensor,stat}/{npu,bench}/{dump.json,stack.json,construct.json[,dump_tensor_data/*.pt]}:
- tensor/: task "tensor", level L1, every tensor also saved as `<data_name>` (torch.save of a contiguous
  clone); a tensor kwarg is recorded under `input_kwargs` with its own file
  `<api>.forward.kwargs.<name>.pt`, as msprobe's dumper names it (api data category "kwargs", suffix the
  kwarg's name).
- stat/: the same calls as task "statistics" (no data_name, no files).
Statistics are what msprobe's PyTorch dumper records: torch max/min (+ mean/norm for float dtypes other
than float64; null for integer dtypes), `.item()` values; non-tensor kwargs as {"type": ..., "value": ...},
None as null. JSON as json.dump(indent=1), no final newline. Deterministic (fixed seed).

Cases (T = rows of the output, "scratch" = rows >= the true valid length):
  NPU.npu_grouped_matmul.0  group_list [2,3] (type 1), T=8: valid 5; npu scratch rows hold garbage incl.
                            NaN/inf, bench scratch rows are zeros.
  NPU.npu_grouped_matmul.1  group_list [3,5], T=8: valid length = whole output (no scratch rows).
  NPU.npu_grouped_matmul.2  group_list_type 0 (cumulative) [2,5], T=8: true valid 5 but sum=7.
  NPU.npu_grouped_matmul.3  both sides carry (different) garbage in the scratch rows.
  NPU.npu_grouped_matmul.4  npu side's group_list .pt file is missing (recorded in dump.json).
  NPU.npu_grouped_matmul.5  group_list sum 11 > T=8.
  NPU.npu_grouped_matmul.6  group_list saved as float32 (not an integer dtype).
  NPU.npu_grouped_matmul.7  bfloat16 output, group_list int32 [1,2] T=6.
  NPU.npu_grouped_matmul.0.backward  backward entry (no kwargs) whose grad outputs have garbage rows.
  NPU.npu_dequant_swiglu_quant.0  group_index [1,3] T=6, outputs int8 y [6,4] and float32 scale [6].
"""
import json
import os
import shutil
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
STACK = ["File /home/user/moe/run_moe.py, line 42, in forward, \n out = moe_layer(x)"]


class Dump:
    def __init__(self, root, task):
        self.root = root
        self.task = task
        self.data = {}
        self.tdir = os.path.join(root, "dump_tensor_data")
        os.makedirs(self.tdir if task == "tensor" else root, exist_ok=True)

    def tensor(self, t, data_name):
        t = t.detach()
        info = {"type": "torch.Tensor", "dtype": str(t.dtype), "shape": list(t.shape)}
        if t.dim() == 0:
            v = t.item()
            info.update({"Max": v, "Min": v, "Mean": v, "Norm": v})
        else:
            info["Max"] = torch.max(t).item()
            info["Min"] = torch.min(t).item()
            if t.is_floating_point() and t.dtype != torch.float64:
                info["Mean"] = torch.mean(t).item()
                info["Norm"] = torch.norm(t).item()
            else:
                info["Mean"] = None
                info["Norm"] = None
        info["requires_grad"] = t.requires_grad
        if self.task == "tensor":
            info["data_name"] = data_name + ".pt"
            torch.save(t.clone().contiguous(), os.path.join(self.tdir, data_name + ".pt"))
        return info

    def forward(self, api, args, kwargs, outputs):
        """args: list of tensors or lists of tensors; kwargs: name -> tensor | ("int"/"bool", v) | None."""
        name = api + ".forward"
        in_args = []
        for i, a in enumerate(args):
            if isinstance(a, list):
                in_args.append([self.tensor(t, f"{name}.input.{i}.{j}") for j, t in enumerate(a)])
            else:
                in_args.append(self.tensor(a, f"{name}.input.{i}"))
        in_kwargs = {}
        for k, v in kwargs.items():
            if v is None:
                in_kwargs[k] = None
            elif isinstance(v, tuple):
                in_kwargs[k] = {"type": v[0], "value": v[1]}
            else:
                in_kwargs[k] = self.tensor(v, f"{name}.kwargs.{k}")
        out = [self.tensor(t, f"{name}.output.{i}") for i, t in enumerate(outputs)]
        self.data[name] = {"input_args": in_args, "input_kwargs": in_kwargs, "output": out}

    def backward(self, api, grad_outputs, grad_inputs):
        name = api + ".backward"
        self.data[name] = {
            "input": [self.tensor(t, f"{name}.input.{i}") for i, t in enumerate(grad_outputs)],
            "output": [self.tensor(t, f"{name}.output.{i}") for i, t in enumerate(grad_inputs)],
        }

    def write(self):
        doc = {"task": self.task, "level": "L1", "framework": "pytorch",
               "dump_data_dir": os.path.join(".", os.path.relpath(self.tdir, os.path.dirname(self.root)))
               if self.task == "tensor" else None,
               "data": self.data}
        with open(os.path.join(self.root, "dump.json"), "w") as f:
            json.dump(doc, f, indent=1)
        stack = {str(i): [[k], STACK] for i, k in enumerate(self.data)}
        with open(os.path.join(self.root, "stack.json"), "w") as f:
            json.dump(stack, f, indent=1)
        with open(os.path.join(self.root, "construct.json"), "w") as f:
            json.dump({}, f, indent=1)


def grouped_matmul(x, w, counts):
    """Reference grouped matmul over the first sum(counts) rows; scratch rows are zero."""
    out = torch.zeros(x.shape[0], w.shape[2], dtype=torch.float32)
    start = 0
    for e, c in enumerate(counts):
        out[start:start + c] = x[start:start + c].float() @ w[e].float()
        start += c
    return out


def main():
    out_root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else HERE)
    for sub in ("tensor", "stat"):
        shutil.rmtree(os.path.join(out_root, sub), ignore_errors=True)
    g = torch.Generator().manual_seed(27)

    def randn(*shape):
        return torch.randn(*shape, generator=g)

    def noise(t, scale=1e-3):
        return t + scale * randn(*t.shape) * (t != 0)

    dumps = {(task, side): Dump(os.path.join(out_root, sub, side), task)
             for sub, task in (("tensor", "tensor"), ("stat", "statistics")) for side in ("npu", "bench")}

    def fwd(api, args_by_side, kwargs_by_side, outs_by_side):
        for (task, side), d in dumps.items():
            d.forward(api, args_by_side[side], kwargs_by_side[side], outs_by_side[side])

    K, N, E = 4, 3, 2

    def gmm_case(idx, T, true_counts, group_list, glt=1, npu_garbage=True, bench_garbage=False,
                 dtype=torch.float32, nan=False):
        x = randn(T, K).to(dtype)
        w = randn(E, K, N).to(dtype)
        ref = grouped_matmul(x, w, true_counts)
        valid = sum(true_counts)
        npu_out = noise(ref)
        bench_out = ref.clone()
        if npu_garbage and valid < T:
            npu_out[valid:] = 1000.0 * randn(T - valid, N)
            if nan:
                npu_out[valid, 0] = float("nan")
                npu_out[T - 1, N - 1] = float("inf")
        if bench_garbage and valid < T:
            bench_out[valid:] = -500.0 * randn(T - valid, N)
        npu_out, bench_out = npu_out.to(dtype), bench_out.to(dtype)
        kw = {"bias": None, "scale": None, "offset": None, "antiquant_scale": None,
              "antiquant_offset": None, "per_token_scale": None, "group_list": group_list,
              "activation_input": None, "activation_quant_scale": None,
              "activation_quant_offset": None, "split_item": ("int", 3), "group_type": ("int", 0),
              "group_list_type": ("int", glt), "act_type": ("int", 0), "output_dtype": None}
        fwd(f"NPU.npu_grouped_matmul.{idx}", {"npu": [[x], [w]], "bench": [[x], [w]]},
            {"npu": kw, "bench": kw}, {"npu": [npu_out], "bench": [bench_out]})
        return x, w, valid

    i64 = torch.int64
    x0, w0, v0 = gmm_case(0, 8, [2, 3], torch.tensor([2, 3], dtype=i64), nan=True)
    gmm_case(1, 8, [3, 5], torch.tensor([3, 5], dtype=i64))
    gmm_case(2, 8, [2, 3], torch.tensor([2, 5], dtype=i64), glt=0)
    gmm_case(3, 8, [2, 3], torch.tensor([2, 3], dtype=i64), bench_garbage=True)
    gmm_case(4, 8, [2, 3], torch.tensor([2, 3], dtype=i64))
    gmm_case(5, 8, [2, 3], torch.tensor([5, 6], dtype=i64))
    gmm_case(6, 8, [2, 3], torch.tensor([2.0, 3.0], dtype=torch.float32))
    gmm_case(7, 6, [1, 2], torch.tensor([1, 2], dtype=torch.int32), dtype=torch.bfloat16)

    # backward of call 0: grad of the output in, grads of x and w out; the x grad has scratch rows
    T = 8
    gy = randn(T, N)
    gy[v0:] = 0
    gx = gy @ w0[0].t()
    gx_npu = noise(gx)
    gx_npu[v0:] = 777.0 * randn(T - v0, K)
    gw = randn(E, K, N)
    for (task, side), d in dumps.items():
        d.backward("NPU.npu_grouped_matmul.0", [gy], [gx_npu if side == "npu" else gx, gw])

    # npu_dequant_swiglu_quant: x int32 [T, 2H] -> y int8 [T, H], scale float32 [T]
    T, H = 6, 4
    xq = torch.randint(-2000, 2000, (T, 2 * H), generator=g, dtype=torch.int32)
    weight_scale = randn(E, 2 * H).abs() * 0.01
    activation_scale = randn(T).abs() * 0.01
    group_index = torch.tensor([1, 3], dtype=i64)
    valid = 4
    y = torch.randint(-127, 128, (T, H), generator=g, dtype=torch.int8)
    y[valid:] = 0
    scale = randn(T).abs()
    scale[valid:] = 0
    y_npu = y.clone()
    y_npu[0, 0] = y[0, 0] + (1 if y[0, 0] < 127 else -1)  # one quantisation step off
    y_npu[valid:] = torch.randint(-127, 128, (T - valid, H), generator=g, dtype=torch.int8)
    scale_npu = scale.clone()
    scale_npu[valid:] = 1e6
    kw = {"weight_scale": weight_scale, "activation_scale": activation_scale, "bias": None,
          "quant_scale": None, "quant_offset": None, "group_index": group_index,
          "activate_left": ("bool", False), "quant_mode": ("int", 1)}
    fwd("NPU.npu_dequant_swiglu_quant.0", {"npu": [xq], "bench": [xq]}, {"npu": kw, "bench": kw},
        {"npu": [y_npu, scale_npu], "bench": [y, scale]})

    for d in dumps.values():
        d.write()
    os.remove(os.path.join(out_root, "tensor", "npu", "dump_tensor_data",
                           "NPU.npu_grouped_matmul.4.forward.kwargs.group_list.pt"))


if __name__ == "__main__":
    main()
