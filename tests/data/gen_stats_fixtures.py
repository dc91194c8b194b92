#!/usr/bin/python3
"""Makes the TensorStatsTest fixtures: small arrays under tests/data/stats/ and expected.json with the
statistics numpy computes in float64 from the same values, plus zlib.crc32 and the msprobe xor fold.

Run once with /usr/bin/python3 (numpy, torch); the outputs are committed. Deterministic (fixed seeds).
"""
import json
import math
import os
import struct
import zlib

import numpy as np
import torch

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "stats")
rng = np.random.default_rng(20240615)
cases = {}


def data_offset(path):
    with open(path, "rb") as f:
        head = f.read(12)
    assert head[:6] == b"\x93NUMPY", path
    if head[6] == 1:
        return 10 + struct.unpack("<H", head[8:10])[0]
    return 12 + struct.unpack("<I", head[8:12])[0]


def xor64(raw):
    raw = raw + b"\0" * (-len(raw) % 8)
    words = np.frombuffer(raw, dtype="<u8")
    out = 0
    for w in words.tolist():
        out ^= w
    return out


def num(x):
    """JSON-safe float: NaN and the infinities as strings the test maps back."""
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def expected(values, raw, f32_raw=None):
    """values: the decoded elements as float64 (complex already |z|); raw: the LE bytes in own dtype."""
    x = np.asarray(values, dtype=np.float64).reshape(-1)
    n = x.size
    nan = int(np.isnan(x).sum())
    e = {
        "numel": n,
        "nan_count": nan,
        "pos_inf_count": int(np.isposinf(x).sum()),
        "neg_inf_count": int(np.isneginf(x).sum()),
        "zero_count": int((x == 0).sum()),
        "has_values": n > 0,
        "crc32": zlib.crc32(raw),
        "crc32_f32": zlib.crc32(f32_raw) if f32_raw is not None else 0,
        "xor64": xor64(raw),
    }
    if n == 0 or nan:
        e.update(max="nan", min="nan", mean="nan", norm="nan")
    else:
        with np.errstate(invalid="ignore", over="ignore"):
            e.update(max=num(x.max()), min=num(x.min()), mean=num(x.mean()), norm=num(np.sqrt(np.sum(x * x))))
    return e


def save_npy(name, arr, dtype_name, values=None, f32_raw=None, le_bytes=None):
    path = os.path.join(OUT, name + ".npy")
    np.save(path, arr)
    if values is None:
        values = arr.astype(np.float64)
    raw = le_bytes if le_bytes is not None else np.ascontiguousarray(arr).tobytes()
    e = expected(values, raw, f32_raw)
    e.update(file=name + ".npy", dtype=dtype_name, shape=list(arr.shape), data_offset=data_offset(path),
             big_endian=arr.dtype.byteorder == ">")
    cases[name] = e


def main():
    os.makedirs(OUT, exist_ok=True)

    # float32 with every special value: NaN makes all four statistics NaN.
    a = (rng.standard_normal(58) * 3).astype(np.float32)
    a = np.concatenate([a, np.array([np.nan, np.inf, -np.inf, 0.0, 0.0, -0.0], np.float32)])
    rng.shuffle(a)
    save_npy("f32_special", a, "float32")

    # float32 infinities without NaN: max inf, min -inf, mean NaN (inf - inf), norm inf.
    save_npy("f32_infinities", np.array([1, np.inf, -np.inf, 2, 0], np.float32), "float32")

    # Plain float32 values with some zeros; also stored big-endian (the gather-and-swap path).
    v = rng.standard_normal(1000).astype(np.float32) * np.float32(2.5)
    v[::97] = 0
    save_npy("f32_values", v, "float32")
    save_npy("f32_big_endian", v.astype(">f4"), "float32", values=v.astype(np.float64), le_bytes=v.tobytes())

    h = (rng.standard_normal(513) * 10).astype(np.float16)
    h[7] = 0
    save_npy("f16", h, "float16", f32_raw=h.astype(np.float32).tobytes())

    # bfloat16: numpy has none, so the raw words are stored as uint16 and read back as kBF16.
    t = torch.from_numpy(rng.standard_normal(3000).astype(np.float32) * 4).bfloat16()
    t[11] = 0
    words = t.view(torch.int16).numpy().view(np.uint16)
    save_npy("bf16", words, "bfloat16", values=t.double().numpy(), f32_raw=t.float().numpy().tobytes())

    d = rng.standard_normal(300) * 1e3
    d[5] = 0
    save_npy("f64", d, "float64")
    save_npy("int8", rng.integers(-128, 128, 333, dtype=np.int8), "int8")
    save_npy("int16", rng.integers(-2**15, 2**15, 77, dtype=np.int16), "int16")
    save_npy("int32", rng.integers(-2**31, 2**31, 257, dtype=np.int32), "int32")
    save_npy("int64", rng.integers(-10**12, 10**12, 100, dtype=np.int64), "int64")
    u = rng.integers(0, 256, 999, dtype=np.uint8)
    u[:5] = 0
    save_npy("uint8", u, "uint8")
    save_npy("bool", rng.random(123) < 0.3, "bool")
    c = (rng.standard_normal(200) + 1j * rng.standard_normal(200)).astype(np.complex64)
    c[3] = 0
    save_npy("complex64", c, "complex64", values=np.abs(c.astype(np.complex128)))

    save_npy("zero_dim_f32", np.array(1.5, np.float32), "float32")
    save_npy("zero_dim_i64", np.array(3, np.int64), "int64")      # msprobe: md5 ebadd88a, xor 3
    save_npy("i64_123", np.array([1, 2, 3], np.int64), "int64")   # msprobe: md5 2bcb8d87, xor 0
    save_npy("empty_f32", np.zeros((0,), np.float32), "float32")  # msprobe: md5 00000000

    # 5000 float32 values (20000 bytes): five 4096-byte windows. Its view [:, 1::2] and a copy of it.
    m = (rng.standard_normal((50, 100)) * 0.75 + 0.1).astype(np.float32)
    m[4, 4] = 0
    save_npy("multi_f32", m, "float32")
    save_npy("multi_f32_view_copy", np.ascontiguousarray(m[:, 1::2]), "float32")

    # int4 has no numpy dtype: raw nibbles [1, -2, 7, -8, 0], low nibble first, in a bare file.
    nibbles = [1, -2, 7, -8, 0]
    packed = bytearray((len(nibbles) + 1) // 2)
    for i, q in enumerate(nibbles):
        packed[i // 2] |= (q & 0xF) << (4 * (i % 2))
    with open(os.path.join(OUT, "int4.bin"), "wb") as f:
        f.write(bytes(packed))
    e = expected(np.array(nibbles, np.float64), bytes(packed))
    e.update(file="int4.bin", dtype="int4", shape=[len(nibbles)], data_offset=0, big_endian=False)
    cases["int4"] = e

    with open(os.path.join(OUT, "expected.json"), "w") as f:
        json.dump(cases, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
