#!/usr/bin/env python3
"""Hand-made dumps in msprobe's dump format for the trend database's tests (docs/trend.md), the same
on every run. The layout and json shapes follow real msprobe output (real/ holds some, made by
gen_real_dumps.py with msprobe itself):
  ROOT/step{N}/rank{R}|proc{P}/{dump.json, construct.json, stack.json}
  dump.json = {"task", "level", "framework", "dump_data_dir", "data": {key: entry}}, indent=1
msprobe's own data2db was run on these to make expected/ (README.md).

Usage: gen_trend_dumps.py OUTDIR   -> OUTDIR/g_* (a dump root per case), OUTDIR/mapping_g_multi.json
                                      and OUTDIR/monitor_g/ (monitor csv output)
Cases:
  g_multi        4 ranks x 4 steps, mix, Megatron-like names, module backward, two micro-batches a
                 step, float32/float16/bfloat16, all_reduce outputs equal on every rank,
                 parameters_grad, an optimizer root.
  g_l0           the same model at L0 (modules only), 2 ranks x 3 steps.
  g_edge         directory and value edge cases (make_edge()).
  g_flush_exact  one file whose rows reach exactly 5000 after an entry, then new targets (msprobe's
                 flush in the middle of a file, which orders target ids).
  g_flush_skip   the same with rows that jump over 5000 (no flush in the middle).
  g_nodata       a dump.json without "data"; g_noconstruct: no construct.json.
  g_nosteprank   a step dir without rank dirs; g_empty: no step dirs at all.
  g_megatron     construct.json in its megatron_micro_step_number form.
"""
import json
import os
import sys


def stat(dtype, mx, mn, mean, norm, shape=(4, 8), ttype="torch.Tensor", requires_grad=False):
    return {"type": ttype, "dtype": dtype, "shape": list(shape), "Max": mx, "Min": mn, "Mean": mean,
            "Norm": norm, "requires_grad": requires_grad}


def val(seed, k):
    """Deterministic pseudo statistics (no hashing)."""
    x = ((seed * 7919 + k * 104729) % 100003) / 100003.0
    return round(x * 4 - 2, 6)


def t(seed, dtype="torch.float32", scale=1.0, **kw):
    a, b, c = val(seed, 1) * scale, val(seed, 2) * scale, val(seed, 3) * scale
    mx, mn = max(a, b), min(a, b)
    return stat(dtype, mx, mn, c / 4, abs(a) + abs(b) + abs(c), **kw)


def write_rank(root, step, rdir, data, construct, level="mix", task="statistics", framework="pytorch"):
    d = os.path.join(root, f"step{step}", rdir)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "dump.json"), "w") as f:
        json.dump({"task": task, "level": level, "framework": framework, "dump_data_dir": None,
                   "data": data}, f, indent=1)
    if construct is not None:
        with open(os.path.join(d, "construct.json"), "w") as f:
            json.dump(construct, f, indent=1)
    with open(os.path.join(d, "stack.json"), "w") as f:
        json.dump({}, f, indent=1)


# ---------------------------------------------------------------- g_multi / g_l0
MODULES = [  # (path, class, has params)
    ("module.embedding", "Linear"),
    ("module.decoder.layers.0.self_attention.linear_qkv", "ColumnParallelLinear"),
    ("module.decoder.layers.0.mlp.linear_fc1", "RowParallelLinear"),
    ("module.decoder.layers.1.self_attention.linear_qkv", "ColumnParallelLinear"),
    ("module.decoder.layers.1.mlp.linear_fc1", "RowParallelLinear"),
    ("module.output_layer", "Linear"),
]
ROOT = "Module.module.GPTModel"


def make_model_dump(step, rank, n_mb, level):
    """One rank, one step. Returns (data, construct) in msprobe's emission order."""
    data, construct = {}, {}
    api_count = {}

    def api(name):
        i = api_count.get(name, 0)
        api_count[name] = i + 1
        return i

    seed0 = step * 1000 + rank * 100
    fwd_api_keys = []
    for mb in range(n_mb):
        root_key = f"{ROOT}.forward.{mb}"
        construct[root_key] = None
        for mi, (path, cls) in enumerate(MODULES):
            mkey = f"Module.{path}.{cls}.forward.{mb}"
            construct[mkey] = root_key
            s = seed0 + mb * 10 + mi
            dt = "torch.bfloat16" if "linear_fc1" in path else "torch.float32"
            if level == "mix":
                li = api("Functional.linear")
                akey = f"Functional.linear.{li}.forward"
                construct[akey] = mkey
                data[akey] = {"input_args": [t(s, dt), t(s + 1, dt), t(s + 2, dt)], "input_kwargs": {},
                              "output": [t(s + 3, dt)]}
                fwd_api_keys.append((akey, mkey))
                if cls == "RowParallelLinear":
                    ri = api("Distributed.all_reduce")
                    rkey = f"Distributed.all_reduce.{ri}.forward"
                    construct[rkey] = mkey
                    # output identical on every rank (seed without rank)
                    data[rkey] = {"input_args": [t(s + 3, dt)], "input_kwargs": {
                        "group": {"type": "torch.ProcessGroup", "group_ranks": [0, 1, 2, 3], "group_id": "77849d8c"}},
                        "output": [t(step * 1000 + mb * 10 + mi + 7, dt)]}
                    fwd_api_keys.append((rkey, mkey))
                if "qkv" in path:
                    hi = api("Tensor.half")
                    hkey = f"Tensor.half.{hi}.forward"
                    construct[hkey] = mkey
                    data[hkey] = {"input_args": [t(s + 4)], "input_kwargs": {},
                                  "output": [t(s + 4, "torch.float16")]}
                    fwd_api_keys.append((hkey, mkey))
            data[mkey] = {"input_args": [t(s + 5, dt)], "input_kwargs": {}, "output": [t(s + 6, dt)],
                          "parameters": {"weight": t(s + 8), "bias": t(s + 9, shape=(8,))}}
        # loss outside any module: API root (dropped by data2db when micro_step is on)
        if level == "mix":
            li = api("Tensor.mean")
            lkey = f"Tensor.mean.{li}.forward"
            construct[lkey] = None
            data[lkey] = {"input_args": [t(seed0 + mb + 50)], "input_kwargs": {},
                          "output": [t(seed0 + mb + 51, shape=())]}
            data[f"Tensor.mean.{li}.backward"] = {"input": [t(seed0 + mb + 52, shape=())],
                                                   "output": [t(seed0 + mb + 53)]}
            construct[f"Tensor.mean.{li}.backward"] = None
        # backward, reverse module order (torch 2.x style: module backward entries exist)
        construct[f"{ROOT}.backward.{mb}"] = None
        for mi, (path, cls) in reversed(list(enumerate(MODULES))):
            s = seed0 + mb * 10 + mi + 500
            bkey = f"Module.{path}.{cls}.backward.{mb}"
            construct[bkey] = f"{ROOT}.backward.{mb}"
            if level == "mix":
                for akey, owner in reversed(fwd_api_keys):
                    if owner == f"Module.{path}.{cls}.forward.{mb}":
                        bk = akey.replace(".forward", ".backward")
                        construct[bk] = None
                        data[bk] = {"input": [t(s + 1)], "output": [t(s + 2), None, t(s + 3)]}
            data[bkey] = {"input": [t(s + 4)], "output": [t(s + 5)]}
            data[f"Module.{path}.{cls}.parameters_grad.{mb}"] = {
                "weight": [t(s + 6)], "bias": [t(s + 7, shape=(8,))]}
    if level == "mix":
        construct["optimizer"] = None
        ci = api("Torch.clone")
        ckey = f"Torch.clone.{ci}.forward"
        construct[ckey] = "optimizer"
        data[ckey] = {"input_args": [t(seed0 + 90)], "input_kwargs": {}, "output": [t(seed0 + 90)]}
    return data, construct


def make_multi(out, name, ranks, steps, n_mb, level):
    root = os.path.join(out, name)
    for step in range(steps):
        for rank in range(ranks):
            data, construct = make_model_dump(step, rank, n_mb, level)
            write_rank(root, step, f"rank{rank}", data, construct, level=level)


# ---------------------------------------------------------------- g_edge
def make_edge(out):
    root = os.path.join(out, "g_edge")
    # step0: rank0 (full), rank2 (sparse ids), proc7 -> mapped after the max rank, rankX ignored,
    #        rank5 without dump.json (warning, not counted), a plain file "rank9".
    for step in (0, 1, 3):
        construct = {
            "Module.net.Net.forward.0": None,
            "Functional.linear.0.forward": "Module.net.Net.forward.0",
            "Module.net.fc.Linear.forward.0": "Module.net.Net.forward.0",
            "Cell.net.dense.Dense.forward.0": "Module.net.Net.forward.0",
            "Mint.add.0.forward": "Cell.net.dense.Dense.forward.0",
            "Tensor.add.10.forward": "Module.net.Net.forward.0",
            "Tensor.add.3.forward": "Module.net.Net.forward.0",
            "Module.net.fc.Linear.forward.3": "Module.net.Net.forward.0",
            "Module.net.layers.0.TELayer.forward.0": "Module.net.Net.forward.0",
            "Module.net.Net.forward.1": None,
            "Module.net.fc.Linear.forward.1": "Module.net.Net.forward.1",
            "Functional.orphan.0.forward": None,
            "Module.net.fc.Linear.parameters_grad": "Module.net.Net.forward.0",
            "Module.net.fc.Linear.backward.0": None,
        }
        data = {
            "Functional.linear.0.forward": {
                "input_args": [
                    t(1, "torch.float16"), t(2, "torch.bfloat16"), t(3, "torch.float64"),
                    t(4, "torch.int64"), t(5, "torch.bool"),
                    stat("torch.float32", 2e9, -3e9, 1e9, 1e9 + 0.5),
                    stat("torch.float32", float("inf"), float("-inf"), float("nan"), None),
                    stat("torch.float32", "inf", " -inf ", "1.5", "abc"),
                    stat("torch.float32", True, 3, -7, 0),
                    {"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2], "Max": 1.0},
                    {"type": "float", "value": 1.5},
                    None,
                    [t(6), t(7)],
                    stat("Float32", 1, 2, 3, 4, ttype="mindspore.Tensor"),
                    stat("Float64", 1, 2, 3, 4, ttype="mindspore.Tensor"),
                    stat("Float16", 1, 2, 3, 4, ttype="mindtorch.Tensor"),
                    stat("BFloat16", 1, 2, 3, 4, ttype="torch.Tensor"),
                    stat("torch.float32", 1, 2, 3, 4, ttype="numpy.ndarray"),
                ],
                "input_kwargs": {"x": t(8)},
                "output": [t(9 + step)],
            },
            "Module.net.fc.Linear.forward.0": {
                "input_args": [t(10 + step)], "input_kwargs": {}, "output": [t(11)],
                # list form: the only form dump2db records for forward parameters
                "parameters": {"weight": [t(12)], "bias": t(13), "empty": [], "int": [t(14, "torch.int64")]},
            },
            "Module.net.fc.Linear.forward.3": {"input_args": [t(15)], "input_kwargs": {}, "output": [t(16)],
                                               "is_recompute": True},
            "Cell.net.dense.Dense.forward.0": {"input_args": [stat("Float32", 1, -1, 0, 2, ttype="mindspore.Tensor")],
                                               "output": [stat("BFloat16", 1, -1, 0, 2, ttype="mindspore.Tensor")]},
            "Mint.add.0.forward": {"input_args": [t(17)], "output": [t(18)]},
            "Tensor.add.10.forward": {"input_args": [t(19)], "output": [t(20)], "is_recompute": True},
            "Tensor.add.3.forward": {"input_args": [t(21)], "output": [t(22)]},
            "Module.net.layers.0.TELayer.forward.0": {"input_args": [t(23)], "output": [t(24)]},
            "Module.net.fc.Linear.forward.1": {"input_args": [t(25 + step)], "output": [t(26)]},
            "Functional.orphan.0.forward": {"input_args": [t(27)], "output": [t(28)]},
            "Module.net.fc.Linear.backward.0": {"input": [t(29)], "output": [t(30), [t(31)]]},
            "Module.net.fc.Linear.parameters_grad": {"weight": [t(32)], "bias": [t(33, "torch.float64")],
                                                     "x": t(34), "y": []},
            "Functional.linear.0.backward": {"input": [t(35)], "output": [t(36)]},
            "NoDotsKey": {"input_args": [t(37)]},
            "Tensor.weird": {"output": [t(38)]},
            "Tensor.notdict.0.forward": [1, 2],
            "ab.forward": {"input_args": [t(39)]},
        }
        write_rank(root, step, "rank0", data, construct)
        if step == 0:
            write_rank(root, step, "rank2", {"Module.net.Net.forward.0": {"output": [t(40)]}},
                       {"Module.net.Net.forward.0": None})
            write_rank(root, step, "proc7", {"Module.net.Net.forward.0": {"output": [t(41)]}},
                       {"Module.net.Net.forward.0": None})
            os.makedirs(os.path.join(root, "step0", "rankX"), exist_ok=True)
            os.makedirs(os.path.join(root, "step0", "rank5"), exist_ok=True)
            open(os.path.join(root, "step0", "rank9"), "w").close()
    os.makedirs(os.path.join(root, "stepx"), exist_ok=True)
    os.makedirs(os.path.join(root, "notastep"), exist_ok=True)
    open(os.path.join(root, "step2"), "w").close()  # a file, not a dir
    # step4: only bad rank dirs -> "No valid 'rank*' or 'proc*' directories" warning
    os.makedirs(os.path.join(root, "step4", "rankA"), exist_ok=True)
    os.makedirs(os.path.join(root, "step4", "other"), exist_ok=True)


# ---------------------------------------------------------------- flush cases
def make_flush(out, name, rows_per_entry):
    """Alternating forward/backward API entries, each with `rows_per_entry` float32 tensors,
    no construct parents (empty construct.json -> every entry kept)."""
    root = os.path.join(out, name)
    data = {}
    n_first = 5000 // rows_per_entry + (0 if 5000 % rows_per_entry == 0 else 1)
    for i in range(n_first + 6):
        kind = "forward" if i % 2 == 0 else "backward"
        tensors = [t(i * 10 + j) for j in range(rows_per_entry)]
        if kind == "forward":
            data[f"Functional.f{i}.0.forward"] = {"input_args": [], "output": tensors}
        else:
            data[f"Functional.f{i}.0.backward"] = {"input": [], "output": tensors}
        # also a parameters_grad entry every 7 entries, with the same number of tensors
        if i % 7 == 3:
            data[f"Module.m{i}.Linear.parameters_grad"] = {f"p{j}": [t(i + j)] for j in range(rows_per_entry)}
    write_rank(root, 0, "rank0", data, {})


def make_misc(out):
    # dump.json without "data"
    r = os.path.join(out, "g_nodata")
    write_rank(r, 0, "rank0", {"Module.a.A.forward.0": {"output": [t(1)]}}, {"Module.a.A.forward.0": None})
    d = os.path.join(r, "step0", "rank1")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "dump.json"), "w") as f:
        json.dump({"task": "statistics", "level": "mix", "framework": "pytorch", "dump_data_dir": None}, f)
    with open(os.path.join(d, "construct.json"), "w") as f:
        json.dump({}, f)
    # missing construct.json
    r = os.path.join(out, "g_noconstruct")
    write_rank(r, 0, "rank0", {"Module.a.A.forward.0": {"output": [t(1)]}}, None)
    # step dir without ranks
    r = os.path.join(out, "g_nosteprank")
    os.makedirs(os.path.join(r, "step0", "misc"), exist_ok=True)
    # no step dirs at all
    os.makedirs(os.path.join(out, "g_empty", "something"), exist_ok=True)
    # megatron construct form
    r = os.path.join(out, "g_megatron")
    construct = {
        "megatron_micro_step_number": 2,
        "Module.module.GPTModel.forward.0": [None, 0],
        "Module.module.fc.Linear.forward.0": ["Module.module.GPTModel.forward.0", 0],
        "Module.module.GPTModel.forward.1": [None, 1],
        "Module.module.fc.Linear.forward.1": ["Module.module.GPTModel.forward.1", 1],
    }
    data = {k: {"input_args": [t(i)], "output": [t(i + 1)]} for i, k in enumerate(construct) if k.startswith("Module")}
    write_rank(r, 0, "rank0", data, construct)


# ---------------------------------------------------------------- monitor csv input
def make_monitor(out):
    """Monitor csv output as documented (header vpp_stage,name,step[,micro_step],ops...;
    files {metric}_{start}-{end}.csv in {time}-rank{R}-{uid} dirs)."""
    root = os.path.join(out, "monitor_g")
    for rank in range(2):
        d = os.path.join(root, f"Dec03_21-34-40-rank{rank}-0a1b2c3d")
        os.makedirs(d, exist_ok=True)
        for step in range(3):
            with open(os.path.join(d, f"actv_{step}-{step}.csv"), "w") as f:
                f.write("vpp_stage,name,step,micro_step,norm,min,max,mean,zeros,nans\n")
                for mb in range(2):
                    for li in range(2):
                        for io in ("input", "output"):
                            s = step * 100 + rank * 10 + mb * 3 + li
                            nm = "inf" if (step, rank, mb, li, io) == (2, 1, 1, 1, "output") else val(s, 1)
                            f.write(f"0,module.layers.{li}.mlp.{io},{step},{mb},{nm},{val(s,2)},{val(s,3)},{val(s,4)},0.0,nan\n")
            with open(os.path.join(d, f"grad_reduced_{step}-{step}.csv"), "w") as f:
                f.write("vpp_stage,name,step,norm,max,min\n")
                for li in range(2):
                    s = step * 100 + li
                    f.write(f"0,layers.{li}.mlp.weight,{step},{val(s,1)},{val(s,2)},{val(s,3)}\n")
            with open(os.path.join(d, f"exp_avg_{step}-{step}.csv"), "w") as f:
                f.write("vpp_stage,name,step,norm,entropy\n")
                f.write(f"0,embedding.word_embeddings.weight,{step},{1e12 if step == 1 else 0.5},0.1\n")
        with open(os.path.join(d, "unknown_0-0.csv"), "w") as f:
            f.write("vpp_stage,name,step,norm\n0,x,0,1.0\n")
    os.makedirs(os.path.join(root, "not_a_monitor_dir"), exist_ok=True)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    make_multi(out, "g_multi", ranks=4, steps=4, n_mb=2, level="mix")
    make_multi(out, "g_l0", ranks=2, steps=3, n_mb=2, level="L0")
    make_edge(out)
    make_flush(out, "g_flush_exact", 2)
    make_flush(out, "g_flush_skip", 3)
    make_misc(out)
    make_monitor(out)
    with open(os.path.join(out, "mapping_g_multi.json"), "w") as f:
        json.dump({".decoder.layers.": ".layers.", "ColumnParallelLinear": "CPL", ".module.": "."}, f, indent=1)


if __name__ == "__main__":
    main()
