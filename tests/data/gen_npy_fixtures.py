#!/usr/bin/python3
"""Writes the .npy fixtures under tests/data/npy/ with real numpy, plus expected.json: for every file
its descr, shape, fortran_order, format version and the element values in C order, as numpy reads
them back. Run once with /usr/bin/python3 (numpy 1.24); the outputs are committed. Never used at
test run time.

Values: ints are JSON integers, floats are Python floats (f2/f4 widen exactly to float64), NaN and
infinities are Python's NaN/Infinity tokens, complex values are [re, im], bools are true/false.
"""
import json
import math
import os
import sys

import numpy as np
import numpy.lib.format as npf

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "npy")
SHARED = os.path.join(HERE, "..", "..", "..", "shared", "data", "msprobe_samples", "pt_npy")

I64_MIN, I64_MAX = -(2**63), 2**63 - 1

# Six values per dtype, chosen so every byte of a multi-byte element differs (byte-order bugs show)
# and the edges of each type appear.
VALUES = {
    "b1": [True, False, True, True, False, False],
    "u1": [0, 1, 127, 128, 254, 255],
    "i1": [-128, -1, 0, 1, 100, 127],
    "i2": [-32768, -2, 0, 1, 0x0102, 32767],
    "u2": [0, 1, 0x0102, 32768, 65534, 65535],
    "i4": [-(2**31), -1, 0, 0x01020304, 7, 2**31 - 1],
    "u4": [0, 1, 0x01020304, 2**31, 2**32 - 2, 2**32 - 1],
    "i8": [I64_MIN, -1, 0, 0x0102030405060708, 7, I64_MAX],
    "u8": [0, 1, 0x0102030405060708, 2**63, 2**64 - 2, 2**64 - 1],
    "f2": [-0.0, 1.5, 65504.0, 2.0**-24, math.inf, math.nan],
    "f4": [-0.0, 3.14159265, -1e-45, 3.4028235e38, -math.inf, math.nan],
    "f8": [-0.0, 0.1, 5e-324, 1.7976931348623157e308, math.inf, math.nan],
    "c8": [1 + 2j, -0.5 + 0.25j, 0j, complex(3.4e38, -1.0), complex(math.inf, 0.0), complex(0.0, 1e-45)],
    "c16": [1 + 2j, -0.5 + 0.25j, 0j, complex(1e308, -1.0), complex(-math.inf, 2.0), complex(0.0, 5e-324)],
}
# Fixture file names: the numpy dtype name.
NAMES = {"b1": "bool", "u1": "uint8", "i1": "int8", "i2": "int16", "u2": "uint16", "i4": "int32",
         "u4": "uint32", "i8": "int64", "u8": "uint64", "f2": "float16", "f4": "float32",
         "f8": "float64", "c8": "complex64", "c16": "complex128"}


def encode(v):
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (complex, np.complexfloating)):
        return [float(v.real), float(v.imag)]
    if isinstance(v, (float, np.floating)):
        return float(v)
    return int(v)


expected = {}


def record(name, version, path=None):
    """Reads the file back with numpy and records what it holds under `name`."""
    path = path or os.path.join(OUT, name)
    with open(path, "rb") as f:
        got_version = npf.read_magic(f)
        assert got_version == version, (name, got_version, version)
        shape, fortran_order, _ = npf._read_array_header(f, version)
    arr = np.load(path, allow_pickle=False)
    assert tuple(arr.shape) == tuple(shape)
    expected[name] = {
        "descr": npf.dtype_to_descr(arr.dtype),
        "shape": list(arr.shape),
        "fortran_order": bool(fortran_order),
        "version": list(version),
        "values": [encode(v) for v in arr.ravel(order="C").tolist()],
    }


def save(name, arr):
    np.save(os.path.join(OUT, name), arr)
    record(name, (1, 0))


def save_version(name, arr, version):
    with open(os.path.join(OUT, name), "wb") as f:
        npf.write_array(f, arr, version=version)
    record(name, version)


def main():
    os.makedirs(OUT, exist_ok=True)
    with np.errstate(over="ignore"):
        for code, values in VALUES.items():
            order = "|" if code in ("b1", "u1", "i1") else "<"
            arr = np.array(values, dtype=order + code)
            arr = arr.reshape(2, 3)
            save(NAMES[code] + ".npy", arr)
            if arr.dtype.itemsize > 1:
                save(NAMES[code] + "_be.npy", arr.astype(">" + code))

    # Fortran order, 2-D and 3-D, and Fortran order with big-endian floats.
    save("fortran_f4_3x4.npy", np.asfortranarray(np.arange(12, dtype="<f4").reshape(3, 4) * 0.5))
    save("fortran_i2_2x3x4.npy", np.asfortranarray(np.arange(24, dtype="<i2").reshape(2, 3, 4) - 12))
    save("fortran_f8_be_2x3.npy", np.asfortranarray(np.array([[1.0, -2.5, 3.25], [4e10, -5e-10, 6.0]], dtype=">f8")))
    # 0-d, 1-tuple and empty shapes.
    save("scalar_f8.npy", np.array(2.5, dtype="<f8"))
    save("scalar_b1.npy", np.array(True))
    save("vec_i4_5.npy", np.array([5, -4, 3, -2, 1], dtype="<i4"))
    save("empty_f4_0.npy", np.zeros((0,), dtype="<f4"))
    save("empty_i4_2x0x3.npy", np.zeros((2, 0, 3), dtype="<i4"))
    # Format versions 2.0 and 3.0 (numpy only picks them for huge or non-latin-1 headers).
    save_version("v2_f4.npy", np.arange(6, dtype="<f4").reshape(2, 3) - 2.5, (2, 0))
    save_version("v3_i8.npy", np.arange(6, dtype="<i8").reshape(3, 2) * -1000000007, (3, 0))

    # A shape whose header text makes numpy pad with a full 64 spaces (the (10 + len + 1) % 64 == 0
    # case of _wrap_header), so the writer test covers that corner too.
    shapes = [(1,) * ndim + (last,) for ndim in range(0, 31) for last in (2, 10, 100)]
    for shape in shapes:
        d = {"descr": "|u1", "fortran_order": False, "shape": shape}
        header = "{" + "".join("'%s': %s, " % (k, repr(v)) for k, v in sorted(d.items())) + "}"
        header += " " * (npf.GROWTH_AXIS_MAX_DIGITS - len(repr(shape[0])))
        if (npf.MAGIC_LEN + 2 + len(header) + 1) % npf.ARRAY_ALIGN == 0:
            save("pad64_u1.npy", np.arange(np.prod(shape), dtype="|u1").reshape(shape))
            break
    else:
        sys.exit("no candidate shape gives a full 64-byte pad")

    # A larger file for the corpus-free reads: 16x16 float32 (numpy's own arange formula).
    save("grid_f4_16x16.npy", (np.arange(256, dtype="<f4").reshape(16, 16) - 128) / 8)

    # The shared msprobe samples (written by msprobe's own numpy.save), when ../shared is present;
    # str.npy is a '<U3' array the reader refuses, so it has no values here.
    if os.path.isdir(SHARED):
        for name in ("f32.npy", "b.npy", "scalar.npy"):
            record("shared/" + name, (1, 0), os.path.join(SHARED, name))

    with open(os.path.join(OUT, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True)
        f.write("\n")


def write_fuzz_corpus():
    """Seeds for tests/fuzz/npy_reader_fuzz.cc: a few fixtures plus descrs the reader refuses."""
    corpus = os.path.join(HERE, "..", "fuzz", "corpus", "npy_reader")
    os.makedirs(corpus, exist_ok=True)
    for name in ("float32.npy", "int16_be.npy", "fortran_i2_2x3x4.npy", "scalar_b1.npy",
                 "empty_i4_2x0x3.npy", "v2_f4.npy", "v3_i8.npy", "complex64.npy"):
        with open(os.path.join(OUT, name), "rb") as src, open(os.path.join(corpus, name), "wb") as dst:
            dst.write(src.read())
    np.save(os.path.join(corpus, "structured.npy"), np.zeros(2, dtype=[("a", "<i4"), ("b", "<f8", (2,))]))
    np.save(os.path.join(corpus, "unicode.npy"), np.array(["ab", "cde"]))


if __name__ == "__main__":
    main()
    write_fuzz_corpus()
