#!/usr/bin/python3
"""Makes the TensorCompareTest fixtures.

Run once from the repository root with Debian's python3 (numpy 1.24, torch 1.13):
    /usr/bin/python3 tests/data/compare/gen_tensor_fixtures.py
Writes:
- tensors/<case>.npu.pt / <case>.bench.pt (torch.save; a few .npy via numpy.save): the pairs of the
  "Metric values verified in G3" table of docs/compare.md §4.2 (their expected values are quoted in the
  test from docs/compare.md, which msprobe produced) and extra pairs (bf16 vs f32, NaN/Inf, squeeze, ...).
- tensors/expected.json: for the extra pairs, the six metric cells computed by `reference_metrics`
  below, which follows msprobe G3's numpy pipeline (docs/compare.md §4.2 steps 4-6) under NumPy 1.x.
- golden/cmp_t_rank0.csv: the Data_name and six metric cells of every row of msprobe's own xlsx
  ../shared/data/msprobe_samples/dist2/cmp_t/compare_result_rank0_*.xlsx (needs python3-openpyxl);
  skipped when ../shared is absent.
Deterministic (fixed seeds).
"""
import csv
import glob
import json
import os

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "tensors")
GOLDEN = os.path.join(HERE, "golden")
SHARED = os.path.join(HERE, "..", "..", "..", "..", "shared", "data", "msprobe_samples", "dist2", "cmp_t")
FLOAT_TYPES = (np.float16, np.float32, np.float64, np.longdouble)
EPS64 = float(np.finfo(np.float64).eps)


def fv(x):
    return float("%.12f" % x)


def to_numpy(t):
    """msprobe's read_pt_data: bf16 -> float32, then .numpy() and np.squeeze (docs/compare.md §6)."""
    t = t.detach()
    if t.dtype == torch.bfloat16:
        t = t.float()
    return np.squeeze(t.numpy())


def reference_metrics(n, b):
    """The six cells msprobe G3 gives for squeezed arrays n, b (docs/compare.md §4.2 steps 4-6)."""
    n = np.array(n, copy=True)
    b = np.array(b, copy=True)
    if n.size == 0:
        return ["unsupported"] * 6
    if n.shape != b.shape:
        return ["shape unmatched"] * 6
    zero_d = n.ndim == 0
    if not zero_d:
        nf, bf = n.astype(float), b.astype(float)
        n_inf, b_inf, n_nan, b_nan = np.isinf(nf), np.isinf(bf), np.isnan(nf), np.isnan(bf)
        if n_inf.any() or n_nan.any() or b_inf.any() or b_nan.any():
            if np.array_equal(n_inf, b_inf) and np.array_equal(n_nan, b_nan):
                n[n_inf | n_nan] = 0
                b[b_inf | b_nan] = 0
            else:
                return ["N/A"] * 6
    rn = n if n.dtype in FLOAT_TYPES else n.astype(float)
    rb = b if b.dtype in FLOAT_TYPES else b.astype(float)
    dtype = np.result_type(rn, rb, np.float32)
    mask = rb == 0
    rn, rb = rn.astype(dtype), rb.astype(dtype)
    eps = np.finfo(dtype).eps
    rn[mask] += eps
    rb[mask] += eps
    with np.errstate(divide="ignore", invalid="ignore"):
        re = np.abs((rn - rb) / rb)
    if zero_d:
        if n.dtype == bool:
            n, b = n.astype(float), b.astype(float)
    else:
        n, b = n.reshape(-1).astype(float), b.reshape(-1).astype(float)
    cells = []
    if zero_d:
        cells += ["unsupported", "unsupported"]
    else:
        num = n.dot(b)
        a_norm, b_norm = np.linalg.norm(n), np.linalg.norm(b)
        if a_norm <= EPS64 and b_norm <= EPS64:
            cells.append(1.0)
        elif a_norm <= EPS64 or b_norm <= EPS64:
            cells.append("Nan")
        else:
            cos = num / (a_norm * b_norm)
            if np.isnan(cos):
                cells.append("Nan")
            else:
                cos = fv(cos)
                cells.append(round(cos, 6) if cos > 0.9999 else cos)
        cells.append(float(np.linalg.norm(n - b, ord=2)))
    max_abs = np.max(np.abs(n - b))
    cells.append("Nan" if np.isnan(max_abs) else fv(max_abs))
    max_re = np.max(np.abs(re))
    cells.append("Nan" if np.isnan(max_re) else fv(max_re))
    for threshold in (0.001, 0.005):
        cells.append("unsupported" if zero_d else fv(np.sum(re < threshold) / np.size(re)))
    return cells


def save(t, name):
    path = os.path.join(OUT, name)
    if name.endswith(".npy"):
        np.save(path, t)
    else:
        torch.save(t, path)


def main():
    os.makedirs(OUT, exist_ok=True)
    gen = torch.Generator().manual_seed(20240901)
    nan, inf = float("nan"), float("inf")

    # The pairs of the verified table (docs/compare.md §4.2); expected values live in the test.
    verified = {
        "g3_f16": (torch.tensor([0, 1e-3, 1], dtype=torch.float16), torch.tensor([0, 0, 1], dtype=torch.float16)),
        "g3_f64": (torch.tensor([0, 1e-3, 1], dtype=torch.float64), torch.tensor([0, 0, 1], dtype=torch.float64)),
        "g3_i32": (torch.tensor([0, 1, 2], dtype=torch.int32), torch.tensor([0, 0, 2], dtype=torch.int32)),
        "g3_ones_zeros": (torch.ones(2, 2), torch.zeros(2, 2)),
        "g3_nan_same": (torch.tensor([1.0, nan, 3.0]), torch.tensor([1.0, nan, 2.0])),
        "g3_all_zero": (torch.zeros(2, 3), torch.zeros(2, 3)),
        "g3_0d": (torch.tensor(3.0), torch.tensor(2.0)),
        "g3_f16_f32": (torch.tensor([1, 2, 3], dtype=torch.float16), torch.tensor([1, 2, 3.001])),
        "g3_neg": (torch.tensor([-1.0, -2.0, -3.0]), torch.tensor([1.0, 2.0, 3.0])),
        "g3_0d_bool": (torch.tensor(True), torch.tensor(False)),
    }
    base = torch.randn(64, 33, generator=gen)
    bench_big = torch.randn(250, 200, generator=gen)
    bench_big[::7, ::3] = 0
    nan_n = torch.randn(4, 6, generator=gen)
    nan_b = nan_n + 1e-3 * torch.randn(4, 6, generator=gen)
    for t in (nan_n, nan_b):
        t[0, 1] = nan
        t[2, 3] = inf
        t[3, 5] = -inf
    nan_b[1, 1] = -inf
    nan_n[1, 1] = inf  # +inf against -inf at the same position: a match (docs/compare.md §4.2 step 4)
    mismatch_n, mismatch_b = nan_n.clone(), nan_b.clone()
    mismatch_b[0, 1] = 1.0
    mismatch_b[0, 2] = nan
    extra = {
        "bf16_f32": (base.to(torch.bfloat16), base + 1e-3 * torch.randn(64, 33, generator=gen)),
        "bf16_bf16": (base.to(torch.bfloat16), (base * 1.01).to(torch.bfloat16)),
        "f16_f16": (base.half(), (base + 1e-2).half()),
        "f64_f32": (base.double() * 1.0001, base),
        "i64_f32": (torch.arange(-20, 20, dtype=torch.int64), torch.arange(-20, 20, dtype=torch.float32) * 1.001),
        "bool_bool": (torch.tensor([True, False, True, True]), torch.tensor([True, True, False, True])),
        "nan_inf_match": (nan_n, nan_b),
        "nan_inf_mismatch": (mismatch_n, mismatch_b),
        "squeeze": (torch.tensor([[1.0, 2.0, 3.0, 4.0, 5.0]]), torch.tensor([1.0, 2.0, 3.0, 4.0, 5.5])),
        "shape_mismatch": (torch.ones(2, 3), torch.ones(3, 2)),
        "empty": (torch.zeros(0, 3), torch.zeros(0, 3)),
        "size1": (torch.tensor([[2.5]]), torch.tensor([2.0])),
        "0d_f16_f32": (torch.tensor(1.5, dtype=torch.float16), torch.tensor(1.25)),
        "big": (bench_big + 1e-3 * torch.randn(250, 200, generator=gen), bench_big),
        "transposed": (base.t(), base.t().contiguous() * 0.999),
    }
    for name, (n, b) in {**verified, **extra}.items():
        save(n, name + ".npu.pt")
        save(b, name + ".bench.pt")
    # MindSpore dumps are .npy (docs/compare.md §6).
    npy_n = np.linspace(-3, 3, 40, dtype=np.float32).reshape(5, 8)
    npy_b = (npy_n * np.float32(1.002)).astype(np.float32)
    npy_b[0, 0] = 0
    save(npy_n, "npy_f32.npu.npy")
    save(npy_b, "npy_f32.bench.npy")

    expected = {}
    for name, (n, b) in extra.items():
        expected[name] = reference_metrics(to_numpy(n), to_numpy(b))
    expected["npy_f32"] = reference_metrics(np.squeeze(npy_n), np.squeeze(npy_b))
    for name, (n, b) in verified.items():  # recorded too, as a check of reference_metrics against §4.2
        expected[name] = reference_metrics(to_numpy(n), to_numpy(b))
    with open(os.path.join(OUT, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True)
        f.write("\n")

    write_golden()


def golden_cell(v):
    if isinstance(v, bool) or v is None:
        raise ValueError("unexpected metric cell %r" % (v,))
    if isinstance(v, (int, float)):
        return repr(float(v))
    return v


def write_golden():
    files = sorted(glob.glob(os.path.join(SHARED, "compare_result_rank0_*.xlsx")))
    if not files:
        print("no shared xlsx; golden/ left as it is")
        return
    import ast
    import openpyxl
    sheet = openpyxl.load_workbook(files[0], read_only=True).worksheets[0]
    rows = list(sheet.iter_rows(values_only=True))
    header = list(rows[0])
    metrics = ["Cosine", "EucDist", "MaxAbsErr", "MaxRelativeErr", "One Thousandth Err Ratio",
               "Five Thousandths Err Ratio"]
    cols = [header.index(m) for m in metrics]
    data_col = header.index("Data_name")
    os.makedirs(GOLDEN, exist_ok=True)
    with open(os.path.join(GOLDEN, "cmp_t_rank0.csv"), "w", newline="") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(["npu_data_name", "bench_data_name"] + metrics)
        for row in rows[1:]:
            npu, bench = ast.literal_eval(row[data_col])
            out.writerow([npu, bench] + [golden_cell(row[c]) for c in cols])


if __name__ == "__main__":
    main()
