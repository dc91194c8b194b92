#!/usr/bin/python3
"""Writes step directories for `msprobe overflow_check -i STEP [-o OUT]` by injecting inf/nan statistics
into the project's 2-rank sample dump (msprobe-made: samples/dist2/npu_t/step0/rank{0,1}; only dump.json,
construct.json and stack.json are copied, the analysis reads nothing else).

Run: /usr/bin/python3 gen_overflow_dump.py [OUT_DIR] [SAMPLE_STEP_DIR]
     (defaults: this directory and the project's samples/dist2/npu_t/step0)
Each case is OUT_DIR/<case>/step0/{rank0,rank1 | proc4242}/. JSON rewritten with json.dump(indent=1), no
final newline (NaN/Infinity tokens as Python's json writes them), entries kept in the sample's order.

Order of the sample's entries (both ranks): Tensor.__mul__.0, Functional.linear.0, Module.linear_1,
Distributed.all_reduce.0, Distributed.all_reduce.1, Functional.linear.1, Module.linear_2, Functional.relu.0,
Distributed.all_gather.0, Tensor.sum.0 (forward), then backward entries and parameters_grad.

Cases:
  none      untouched copy: no anomaly, no file written.
  pre       rank0 Functional.linear.0.forward output Max=inf (inputs normal): found before communication.
  pre_both  rank1 Tensor.__mul__.0.forward output Min=-inf and rank0 Functional.linear.0.forward output
            Max=nan: one node per rank before communication (order of ranks = listing order of -i).
  input_bad rank0 Functional.linear.0.forward input and output inf (input anomaly: not a source), and
            Torch.empty.0.forward (inserted first, output nan: ignored op); nothing else -> no file.
  comm      rank0 Functional.relu.0.forward output inf (between all_reduce.1 and all_gather.0, inputs
            normal) and all_gather.0 with inf in its input tensor and output on rank0, nan in the output on
            rank1: found during communication.
  comm_out  all_reduce.1 output nan on both ranks, inputs normal (the communication itself produced it).
  post      rank1 Tensor.sum.0.forward output inf (after the last communication): found after communication.
  proc      single directory proc4242 (no torch.distributed) holding rank0 of "pre": rank 0.
"""
import copy
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
INF, NAN = float("inf"), float("nan")


def load(step, rank):
    d = os.path.join(step, f"rank{rank}")
    with open(os.path.join(d, "dump.json")) as f:
        dump = json.load(f)
    with open(os.path.join(d, "construct.json")) as f:
        construct = json.load(f)
    with open(os.path.join(d, "stack.json")) as f:
        stack = json.load(f)
    return {"dump": dump, "construct": construct, "stack": stack}


def write(rank_dir, files):
    os.makedirs(rank_dir, exist_ok=True)
    for name in ("dump", "construct", "stack"):
        with open(os.path.join(rank_dir, name + ".json"), "w") as f:
            json.dump(files[name], f, indent=1)


def main():
    out = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else HERE)
    src = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "..", "..", "..", "samples", "dist2", "npu_t", "step0")
    for name in ("none", "pre", "pre_both", "input_bad", "comm", "comm_out", "post", "proc"):
        shutil.rmtree(os.path.join(out, name), ignore_errors=True)
    base = {r: load(src, r) for r in (0, 1)}

    def case(name, edits, dirs=None):
        ranks = copy.deepcopy(base)
        for r in ranks:
            edits(r, ranks[r]["dump"]["data"], ranks[r])
        for r, files in ranks.items():
            if dirs is None:
                write(os.path.join(out, name, "step0", f"rank{r}"), files)
            elif r in dirs:
                write(os.path.join(out, name, "step0", dirs[r]), files)

    def nothing(r, data, files):
        pass

    def pre(r, data, files):
        if r == 0:
            data["Functional.linear.0.forward"]["output"][0]["Max"] = INF

    def pre_both(r, data, files):
        if r == 0:
            data["Functional.linear.0.forward"]["output"][0]["Max"] = NAN
        else:
            data["Tensor.__mul__.0.forward"]["output"][0]["Min"] = -INF

    def input_bad(r, data, files):
        if r == 0:
            e = data["Functional.linear.0.forward"]
            e["input_args"][0]["Max"] = INF
            e["output"][0]["Max"] = INF
            empty = {"input_args": [{"type": "int", "value": 3}], "input_kwargs": {},
                     "output": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [3],
                                 "Max": NAN, "Min": NAN, "Mean": NAN, "Norm": NAN, "requires_grad": False}]}
            items = list(data.items())
            data.clear()
            data["Torch.empty.0.forward"] = empty
            data.update(items)

    def comm(r, data, files):
        g = data["Distributed.all_gather.0.forward"]
        if r == 0:
            data["Functional.relu.0.forward"]["output"][0]["Max"] = INF
            g["input_args"][1]["Max"] = INF
            g["output"][1]["Max"] = INF
        else:
            g["output"][1]["Min"] = NAN

    def comm_out(r, data, files):
        data["Distributed.all_reduce.1.forward"]["output"][0]["Max"] = NAN

    def post(r, data, files):
        if r == 1:
            data["Tensor.sum.0.forward"]["output"][0]["Max"] = INF

    case("none", nothing)
    case("pre", pre)
    case("pre_both", pre_both)
    case("input_bad", input_bad)
    case("comm", comm)
    case("comm_out", comm_out)
    case("post", post)
    case("proc", pre, dirs={0: "proc4242"})


if __name__ == "__main__":
    main()
