#!/usr/bin/python3
"""Writes three msprobe L1 tensor dumps (task "tensor") of one tiny model, for the tests of "which op
introduced the error" (recompute each API in float64 from its dumped inputs; see README.md here):

  golden/        the reference run;
  target_op/     same inputs and weights, but Functional.gelu.0.forward computed with approximate='tanh'
                 while recorded as called with the default ('none'): the op itself is wrong;
  target_input/  same as golden except three elements of W2 scaled by (1 + 1e-2): every op is right on
                 what it receives, Functional.linear.1.forward first receives something different.

Run with Debian's torch: /usr/bin/python3 tests/data/recompute/gen_recompute_dumps.py
The files follow what msprobe writes (docs/formats.md §1, §2; the samples of /work/shared/data): json.dump
with indent=1 and no final newline, tensor objects keyed type/dtype/shape/Max/Min/Mean/Norm/requires_grad/
data_name, tensors saved as torch.save(t.clone().contiguous().detach()) to <entry>.input.<i>.pt /
<entry>.output.<i>.pt, stack.json in msprobe's new grouped format, construct.json {} (L1). Only forward
entries (as a config with data_mode ["forward"] gives). The script checks its facts with asserts and
prints the self-error table quoted in README.md. Output is byte-for-byte deterministic (the .pt zips
carry 1980 timestamps and the archive name is the file's stem).
"""
import json
import os
import shutil

import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
U = 2.0 ** -24  # float32 unit roundoff
# "departs" threshold on the normwise relative self-error (max|y - ref| / max|ref|). The fp32 kernels here
# (reductions of at most 32 terms) measure about 2 u from their float64 recomputation; the tanh GELU
# approximation about 2800 u. 64 u leaves a factor of 30 or more on both sides.
TOL = 64 * U

# The model as a user would write it; the stack.json lines below point into this (fictitious) file.
MODEL = "/home/user/recompute/model.py"
STACK = {  # entry -> (line, code) of the call inside forward()
    "Functional.linear.0.forward": (14, "h = F.linear(x, self.w1, self.b1)"),
    "Functional.gelu.0.forward": (15, "h = F.gelu(h)"),
    "Functional.linear.1.forward": (16, "h = F.linear(h, self.w2, self.b2)"),
    "Functional.layer_norm.0.forward": (17, "h = F.layer_norm(h, (8,), self.g, self.beta, 1e-5)"),
    "Tensor.__add__.0.forward": (18, "h = h + r"),
    "Functional.softmax.0.forward": (19, "p = F.softmax(h, dim=-1)"),
    "Torch.sum.0.forward": (20, "return torch.sum(p, dim=[1])"),
}
CALLER = f"File {MODEL}, line 31, in <module>, \n y = model(x, r)"


def scalar(v):
    # formats.md §1.6; bool before int because bool is an int in Python.
    for t in (bool, int, float, str):
        if isinstance(v, t):
            return {"type": t.__name__, "value": v}
    raise TypeError(type(v))


class Dump:
    """Records API calls the way msprobe's tensor task does: arguments as passed, then the output."""

    def __init__(self, case):
        self.case = case
        self.dir = os.path.join(HERE, case, "step0", "rank0")
        self.tdir = os.path.join(self.dir, "dump_tensor_data")
        os.makedirs(self.tdir)
        self.data = {}

    def arg(self, v, name):
        if isinstance(v, torch.Tensor):
            torch.save(v.clone().contiguous().detach(), os.path.join(self.tdir, name + ".pt"))
            return {"type": "torch.Tensor", "dtype": str(v.dtype), "shape": list(v.shape),
                    "Max": torch.max(v).item(), "Min": torch.min(v).item(),
                    "Mean": torch.mean(v).item(), "Norm": torch.norm(v).item(),
                    "requires_grad": v.requires_grad, "data_name": name + ".pt"}
        if v is None:
            return None
        if isinstance(v, (list, tuple)):  # tuples are JSON arrays too
            return [self.arg(x, f"{name}.{i}") for i, x in enumerate(v)]
        return scalar(v)

    def call(self, key, fn, args, kwargs=None, kernel=None):
        """Runs kernel (default fn) on the arguments but records the call as fn(*args, **kwargs)."""
        kwargs = kwargs or {}
        assert not any(isinstance(v, torch.Tensor) for v in kwargs.values())  # not needed, not named here
        out = (kernel or fn)(*args, **kwargs)
        self.data[key] = {"input_args": [self.arg(a, f"{key}.input.{i}") for i, a in enumerate(args)],
                          "input_kwargs": {k: self.arg(v, f"{key}.input.{k}") for k, v in kwargs.items()},
                          "output": [self.arg(out, f"{key}.output.0")]}
        return out

    def write(self):
        dump = {"task": "tensor", "level": "L1", "framework": "pytorch",
                "dump_data_dir": f"./{self.case}/step0/rank0/dump_tensor_data", "data": self.data}
        stack = {str(i): [[k], [f"File {MODEL}, line {STACK[k][0]}, in forward, \n {STACK[k][1]}", CALLER]]
                 for i, k in enumerate(self.data)}
        for name, obj in (("dump.json", dump), ("stack.json", stack), ("construct.json", {})):
            with open(os.path.join(self.dir, name), "w") as f:
                json.dump(obj, f, indent=1)  # msprobe's settings: indent 1, no trailing newline


def params():
    g = torch.Generator().manual_seed(20240)
    rn = lambda *s, scale=1.0: torch.randn(*s, generator=g) * scale
    p = {"x": rn(4, 16), "w1": rn(32, 16, scale=0.25), "b1": rn(32, scale=0.1),
         "w2": rn(8, 32, scale=0.18), "b2": rn(8, scale=0.1),
         "g": 1.0 + rn(8, scale=0.1), "beta": rn(8, scale=0.1), "r": rn(4, 8, scale=0.5)}
    assert all(t.dtype == torch.float32 for t in p.values())
    return p


W2_PERTURBED = [(0, 3), (3, 17), (6, 30)]  # elements of W2 scaled by (1 + 1e-2) in target_input


def run(case, gelu_kernel="none", perturb=False):
    p = params()
    if perturb:
        for ij in W2_PERTURBED:
            p["w2"][ij] *= 1.0 + 1e-2
    d = Dump(case)
    h = d.call("Functional.linear.0.forward", F.linear, [p["x"], p["w1"], p["b1"]])
    # target_op: the kernel is the tanh approximation, the recorded call is plain F.gelu(h).
    h = d.call("Functional.gelu.0.forward", F.gelu, [h], kernel=lambda t: F.gelu(t, approximate=gelu_kernel))
    h = d.call("Functional.linear.1.forward", F.linear, [h, p["w2"], p["b2"]])
    # positional, normalized_shape a tuple: as nn.LayerNorm calls it (recorded [{"type": "int", ...}]).
    h = d.call("Functional.layer_norm.0.forward", F.layer_norm, [h, (8,), p["g"], p["beta"], 1e-5])
    # r is a fresh input, not an earlier op's output: the residual path must not be blamed on anything.
    h = d.call("Tensor.__add__.0.forward", torch.Tensor.__add__, [h, p["r"]])
    h = d.call("Functional.softmax.0.forward", F.softmax, [h], {"dim": -1})
    d.call("Torch.sum.0.forward", torch.sum, [h], {"dim": [1]})
    d.write()


# ---- checks, made on what was written (json + .pt), as a reader of the dump would see it ----

REF = {"Functional.linear": F.linear, "Functional.gelu": F.gelu, "Functional.layer_norm": F.layer_norm,
       "Tensor.__add__": torch.Tensor.__add__, "Functional.softmax": F.softmax, "Torch.sum": torch.sum}


def load(case):
    rank = os.path.join(HERE, case, "step0", "rank0")
    with open(os.path.join(rank, "dump.json")) as f:
        return rank, json.load(f)["data"]


def value(v, rank, f64):
    if v is None:
        return None
    if isinstance(v, list):
        return [value(x, rank, f64) for x in v]
    if v["type"] == "torch.Tensor":
        t = torch.load(os.path.join(rank, "dump_tensor_data", v["data_name"]))
        assert list(t.shape) == v["shape"] and str(t.dtype) == v["dtype"] and torch.max(t).item() == v["Max"]
        return t.double() if f64 else t
    return v["value"]


def self_errors(case):
    """Entry -> max|y - ref| / max|ref|, ref = the recorded call redone in float64 on the dumped inputs."""
    rank, data = load(case)
    errs = {}
    for key, e in data.items():
        api = key.rsplit(".", 2)[0]
        args = [value(a, rank, True) for a in e["input_args"]]
        kwargs = {k: value(v, rank, True) for k, v in e["input_kwargs"].items()}
        ref = REF[api](*args, **kwargs)
        y = value(e["output"][0], rank, True)
        errs[key] = ((y - ref).abs().max() / ref.abs().max()).item()
    return errs


def tensor_args(case):
    """Entry -> [(path, fp32 tensor)] for every tensor input, in recorded order."""
    rank, data = load(case)
    return {k: [(f"input_args.{i}", value(a, rank, False)) for i, a in enumerate(e["input_args"])
                if isinstance(a, dict) and a["type"] == "torch.Tensor"] for k, e in data.items()}


def first_input_diff(a, b):
    ta, tb = tensor_args(a), tensor_args(b)
    for key in ta:
        for (path, x), (_, y) in zip(ta[key], tb[key]):
            if not torch.equal(x, y):
                return key, path
    return None


def main():
    for case in ("golden", "target_op", "target_input"):
        shutil.rmtree(os.path.join(HERE, case), ignore_errors=True)
    run("golden")
    run("target_op", gelu_kernel="tanh")
    run("target_input", perturb=True)

    errs = {c: self_errors(c) for c in ("golden", "target_op", "target_input")}
    keys = list(errs["golden"])
    assert keys == list(STACK)  # recorded in execution order
    print(f"| API | {' | '.join(errs)} |  (max|y-ref|/max|ref|; u = 2^-24 = {U:.3e}, TOL = {TOL / U:.0f} u)")
    for k in keys:
        print(f"| {k} | " + " | ".join(f"{errs[c][k]:.2e} ({errs[c][k] / U:.1f} u)" for c in errs) + " |")

    # (a) golden and target_input: no API departs. target_op: gelu is the first and only one that does;
    # later ops inherit its error but compute correctly on what they receive.
    for c in ("golden", "target_input"):
        assert all(e < TOL for e in errs[c].values()), c
    departs = [k for k in keys if errs["target_op"][k] >= TOL]
    assert departs == ["Functional.gelu.0.forward"], departs
    assert errs["target_op"]["Functional.gelu.0.forward"] > 16 * TOL  # a wide margin, not a near call

    # (b) target_input vs golden: the first differing input is W2 at linear.1; target_op vs golden: the
    # gelu output arriving at linear.1. x and r are bitwise equal in all three cases.
    assert first_input_diff("target_input", "golden") == ("Functional.linear.1.forward", "input_args.1")
    assert first_input_diff("target_op", "golden") == ("Functional.linear.1.forward", "input_args.0")
    g = tensor_args("golden")
    for c in ("target_op", "target_input"):
        t = tensor_args(c)
        assert torch.equal(t["Functional.linear.0.forward"][0][1], g["Functional.linear.0.forward"][0][1])  # x
        assert torch.equal(t["Tensor.__add__.0.forward"][1][1], g["Tensor.__add__.0.forward"][1][1])  # r
    w2t, w2g = t["Functional.linear.1.forward"][1][1], g["Functional.linear.1.forward"][1][1]
    assert (w2t != w2g).sum().item() == len(W2_PERTURBED)
    # every later output of both targets differs from golden (the error travels to the end)
    for c in ("target_op", "target_input"):
        rank_c, data_c = load(c)
        rank_g, data_g = load("golden")
        first = "Functional.gelu.0.forward" if c == "target_op" else "Functional.linear.1.forward"
        for k in keys[keys.index(first):]:
            assert not torch.equal(value(data_c[k]["output"][0], rank_c, False),
                                   value(data_g[k]["output"][0], rank_g, False)), (c, k)
    print("all checks passed")


if __name__ == "__main__":
    main()
