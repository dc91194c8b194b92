#!/usr/bin/python3
"""Makes the kernel-dump fixtures (two small npy trees, a statistic-mode pair) and expected.json: the
metrics as msprobe's ms_graph_compare computes them with numpy (docs/kernel_dump.md §6.2), statistics in
float64. Run once with /usr/bin/python3 (numpy 1.24) from this directory; the outputs are committed."""
import json, os, shutil
import numpy as np

rng = np.random.default_rng(20261121)
LONG_OP = "Default_network-WithLossCell__backbone-" + "VeryLongCellName_" * 12 + "MatMul-op7"


def write(root, name, arr, raw=False):
    os.makedirs(root, exist_ok=True)
    path = os.path.join(root, name)
    if raw:
        arr.tofile(path)
    else:
        np.save(path, arr)


def metrics(n, b):
    """§6.2: nan/inf zeroed where positions agree, rel in result_type(n, b, float32) with eps where b == 0."""
    n, b = n.copy(), b.copy()
    for arr in (n, b):
        arr[~np.isfinite(arr)] = 0
    t = np.result_type(n, b, np.float32)
    nt, bt = n.astype(t), b.astype(t)
    zero = bt == 0
    eps = np.finfo(t).eps
    nt[zero] += eps
    bt[zero] += eps
    rel = np.abs((nt - bt) / bt)
    n64, b64 = n.reshape(-1).astype(np.float64), b.reshape(-1).astype(np.float64)
    cos = float(np.dot(n64, b64) / (np.linalg.norm(n64) * np.linalg.norm(b64)))
    return {"cosine": cos, "euc": float(np.linalg.norm(n64 - b64)), "max_abs": float(np.max(np.abs(n64 - b64))),
            "max_rel": float(np.max(rel)), "one": float(np.mean(rel < 0.001)), "five": float(np.mean(rel < 0.005))}


def stats(a):
    a = a.astype(np.float64)
    return [float(np.max(a)), float(np.min(a)), float(np.mean(a)), float(np.linalg.norm(a.reshape(-1)))]


def main():
    for d in ("npu", "bench", "stat_npu", "stat_bench"):
        shutil.rmtree(d, ignore_errors=True)
    npu, bench = "npu/rank_0/Net/0/0", "bench/rank_0/Net/0/0"
    expected = {}

    def pair(name, n, b, raw=False):
        write(npu, name, n, raw)
        write(bench, name, b, raw)
        expected[name] = {"npu_stats": stats(n), "bench_stats": stats(b), **metrics(n, b)}

    x = rng.standard_normal((3, 4)).astype(np.float32)
    pair("Add.Default_Add-op0.0.0.100.input.0.DefaultFormat.float32.npy", x, x + np.float32(1e-4))
    y = rng.standard_normal((3, 4)).astype(np.float32)
    pair("Add.Default_Add-op0.0.0.100.output.0.DefaultFormat.float32.npy", y, y * np.float32(1.01))
    # The same key again, later: Local Index 1.
    y2 = rng.standard_normal((3, 4)).astype(np.float32)
    pair("Add.Default_Add-op0.0.0.150.output.0.DefaultFormat.float32.npy", y2, -y2)
    h = rng.standard_normal((4, 4)).astype(np.float16)
    pair("MatMul.Default_MatMul-op1.0.0.200.output.0.DefaultFormat.float16.npy", h, (h * np.float16(1.5)).astype(np.float16))
    c = np.array([1.0, np.nan, 3.0, np.inf, 0.0], dtype=np.float32)
    pair("Cast.Default_Cast-op2.9.10.300.input.0.ND.FLOAT.npy", c, np.array([1.0, np.nan, 2.5, np.inf, 0.5], np.float32))
    r = rng.standard_normal(6).astype(np.float16)
    pair("Sub.Default_Sub-op3.0.0.400.input.0.ND.FLOAT16", r, (r + np.float16(0.25)).astype(np.float16), raw=True)
    # A long name written as 32 digits + mapping.csv (npu side only; the bench keeps the long name).
    long_name = "MatMul." + LONG_OP + ".0.0.450.output.0.DefaultFormat.float32.npy"
    m = rng.standard_normal((2, 2)).astype(np.float32)
    write(npu, "12345678901234567890123456789012.npy", m)
    with open(os.path.join(npu, "mapping.csv"), "w") as f:
        f.write("12345678901234567890123456789012.npy," + long_name + "\n")
    write(bench, "98765432109876543210987654321098.npy", m * np.float32(2))
    with open(os.path.join(bench, "mapping.csv"), "w") as f:
        f.write("98765432109876543210987654321098.npy," + long_name + "\n")
    expected[long_name] = {"npu_stats": stats(m), "bench_stats": stats(m * np.float32(2)), **metrics(m, m * np.float32(2))}
    # Shape mismatch, NPU-only and bench-only tensors.
    write(npu, "Reshape.Default_Reshape-op5.0.0.500.output.0.DefaultFormat.float32.npy", np.ones((2, 3), np.float32))
    write(bench, "Reshape.Default_Reshape-op5.0.0.500.output.0.DefaultFormat.float32.npy", np.ones((3, 2), np.float32))
    write(npu, "Relu.Default_Relu-op6.0.0.600.output.0.DefaultFormat.float32.npy", np.ones(3, np.float32))
    write(bench, "Gelu.Default_Gelu-op8.0.0.700.output.0.DefaultFormat.float32.npy", np.ones(3, np.float32))

    # STATISTIC mode: MindSpore's variant (quoted shape, trailing comma) against msprobe L2's (unquoted).
    os.makedirs("stat_npu/rank_0/Net/0/0")
    os.makedirs("stat_bench/rank_0/20261121000000/step_0")
    ms = ("Op Type,Op Name,Task ID,Stream ID,Timestamp,IO,Slot,Data Size,Data Type,Shape,Max Value,Min Value,"
          "Avg Value,Count,L2Norm Value\n"
          "Add,Default_Add-op0,0,0,100,input,0,48,float32,\"(3,4)\",2.5,-1.5,0.25,12,4.75,\n"
          "Mul,Default_Mul-op1,0,0,200,output,0,16,float32,\"(4)\",8,0,3,4,7.5,\n"
          "Neg,Default_Neg-op2,0,0,300,output,0,8,float32,\"(2)\",1,-1,0,2,1.4142135,\n")
    open("stat_npu/rank_0/Net/0/0/statistic.csv", "w").write(ms)
    l2 = ("Op Type,Op Name,Task ID,Stream ID,Timestamp,Input/Output,Slot,Data Size,Data Type,Format,Shape,"
          "Max Value,Min Value,Avg Value,L2Norm Value\n"
          "Add,Default_Add-op0,0,0,100,input,0,48,float32,ND,(3,4),2,-1.25,0.5,4.5\n"
          "Mul,Default_Mul-op1,0,0,200,output,0,16,float32,ND,(4),0,null,True,7.5\n")
    open("stat_bench/rank_0/20261121000000/step_0/statistic.csv", "w").write(l2)
    f32 = np.float32
    def rel(d, b):
        return "N/A" if b == 0 else str(np.abs(f32(d) / f32(b)) * f32(100)) + "%"
    stat_expected = {}
    for key, nv, bv in (("Default_Add-op0.0.input.0", [2.5, -1.5, 0.25, 4.75], [2, -1.25, 0.5, 4.5]),
                        ("Default_Mul-op1.0.output.0", [8, 0, 3, 7.5], [0, 0, 1, 7.5])):
        n, b = np.array(nv, f32), np.array(bv, f32)
        d = n - b
        mag = float(f32(d[0])) / (max(float(n[0]), float(b[0])) + 1e-10)
        stat_expected[key] = {"diff": [float(v) for v in d], "rel": [rel(d[i], b[i]) for i in range(4)],
                              "accuracy": "Yes" if mag <= 0.5 else "No"}
    expected["statistic"] = stat_expected
    # What msprobe-dump statistic must write for the npu tree: per tensor (op_name, timestamp, io, slot)
    # max min mean count nan -inf +inf zero l2norm, in float64 (numpy repr).
    lines = []
    for name in sorted(os.listdir(npu)):
        if name == "mapping.csv":
            continue
        path = os.path.join(npu, name)
        orig = long_name if name.startswith("1234") else name
        f = orig.split(".")
        raw = not orig.endswith(".npy")
        a = np.fromfile(path, np.float16) if raw else np.load(path)
        a = a.astype(np.float64).reshape(-1)
        finite = a[np.isfinite(a)]
        has_nan = np.isnan(a).any()
        vals = [np.nan] * 3 + [np.nan] if has_nan else [a.max(), a.min(), a.mean(), np.linalg.norm(a)]
        lines.append(" ".join([f[1], f[4], f[5], f[6], repr(float(vals[0])), repr(float(vals[1])), repr(float(vals[2])),
                               str(a.size), str(int(np.isnan(a).sum())), str(int(np.isneginf(a).sum())),
                               str(int(np.isposinf(a).sum())), str(int((a == 0).sum())), repr(float(vals[3]))]))
    with open("expected_statistic.txt", "w") as out:
        out.write("\n".join(lines) + "\n")
    with open("expected.json", "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
