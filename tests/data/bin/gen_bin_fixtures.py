#!/usr/bin/python3
"""Makes the kernel .bin fixtures and the .npy files msprobe-convert must produce from them.

Run once (needs numpy and protoc): /usr/bin/python3 tests/data/bin/gen_bin_fixtures.py
Headers are encoded by `protoc --encode` from dump_data.proto (independent of libdump's decoder).
Device buffers are made from a known host array by numpy pad/reshape/transpose (the forward layout
transform), and every one is checked against docs/kernel_dump.md §3.2's inverse view before it is written;
the expected output is the host array itself. Output names follow msprobe-convert's scheme
{bin}.{input|output}.{slot}.{FORMAT}.{DTYPE}.npy.
"""
import math
import os
import shutil
import struct
import subprocess

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "cases")
EXPECTED = os.path.join(HERE, "expected")
MALFORMED = os.path.join(HERE, "malformed")
RNG = np.random.default_rng(20240601)

DT = {"FLOAT": 1, "FLOAT16": 2, "INT8": 3, "UINT8": 4, "INT16": 5, "UINT16": 6, "INT32": 7, "INT64": 8,
      "UINT32": 9, "UINT64": 10, "BOOL": 11, "DOUBLE": 12, "STRING": 13, "COMPLEX64": 16, "COMPLEX128": 17,
      "QINT8": 18, "BF16": 27, "INT4": 28, "COMPLEX32": 32, "FLOAT8_E5M2": 34, "FLOAT8_E4M3FN": 35}


def encode(text):
    return subprocess.run(["protoc", "--encode=toolkit.dumpdata.DumpData", f"--proto_path={HERE}",
                           os.path.join(HERE, "dump_data.proto")], input=text.encode(), check=True,
                          capture_output=True).stdout


def shape_text(field, dims):
    return f"{field} {{ " + " ".join(f"dim: {d}" for d in dims) + " }"


def slot_text(kind, s):
    body = [f"data_type: DT_{s['dtype']}" if s['dtype'] in DT else f"data_type: {s['dtype_id']}",
            f"format: {s['format']}", shape_text("shape", s["shape"]), f"size: {len(s['data'])}"]
    if s.get("original") is not None:
        body.append(shape_text("original_shape", s["original"]))
    if s.get("sub_format"):
        body.append(f"sub_format: {s['sub_format']}")
    return f"{kind} {{ " + " ".join(body) + " }"


def write_bin(directory, name, inputs=(), outputs=(), extra="", header_length=None, tail=b""):
    text = f'version: "2.0" dump_time: 1735011096403740 op_name: "Default/{name.split(".")[1]}" '
    text += " ".join(slot_text("output", s) for s in outputs) + " "
    text += " ".join(slot_text("input", s) for s in inputs) + " " + extra
    header = encode(text)
    data = b"".join(s["data"] for s in list(inputs) + list(outputs))
    length = len(header) if header_length is None else header_length
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, name), "wb") as f:
        f.write(struct.pack("<Q", length) + header + data + tail)


def expect(base, io, idx, fmt, dtype, array):
    np.save(os.path.join(EXPECTED, f"{base}.{io}.{idx}.{fmt}.{dtype}.npy"), np.ascontiguousarray(array))


def slot(dtype, fmt, dev, original, data, sub_format=0):
    return {"dtype": dtype, "format": fmt, "shape": list(dev), "original": original, "data": data,
            "sub_format": sub_format}


def host_values(shape, dtype=np.float16):
    return (RNG.standard_normal(shape) * 10).astype(dtype)


def pad_to(x, axis, multiple):
    pad = [(0, 0)] * x.ndim
    pad[axis] = (0, -x.shape[axis] % multiple)
    return np.pad(x, pad)


# ---- layouts: forward transforms (host → device) and the §3.2 inverse views ----

def nc1hwc0(x, c0):
    n, c, h, w = x.shape
    c1 = -(-c // c0)
    dev = pad_to(x, 1, c0).reshape(n, c1, c0, h, w).transpose(0, 1, 3, 4, 2)
    back = dev.reshape(n, c1, h, w, c0).transpose(0, 1, 4, 2, 3).reshape(n, c1 * c0, h, w)[:, :c]
    assert np.array_equal(back, x)
    return dev


def fractal_z(x, c0):
    n, c, h, w = x.shape
    c1, n1 = -(-c // c0), -(-n // 16)
    xp = pad_to(pad_to(x, 0, 16), 1, c0).reshape(n1, 16, c1, c0, h, w)
    dev = xp.transpose(2, 4, 5, 0, 1, 3).reshape(c1 * h * w, n1, 16, c0)
    back = dev.reshape(c1, h, w, n1, 16, c0).transpose(3, 4, 0, 5, 1, 2).reshape(n1 * 16, c1 * c0, h, w)[:n, :c]
    assert np.array_equal(back, x)
    return dev


def fractal_z_3d(x, c0):
    n, c, d, h, w = x.shape
    c1, n1 = -(-c // c0), -(-n // 16)
    xp = pad_to(pad_to(x, 0, 16), 1, c0).reshape(n1 * 16, c1, c0, d, h, w)
    dev = xp.transpose(3, 1, 4, 5, 0, 2).reshape(d * c1 * h * w, n1, 16, c0)
    back = dev.reshape(d, c1, h, w, n1 * 16, c0).transpose(4, 1, 5, 0, 2, 3).reshape(n1 * 16, c1 * c0, d, h, w)
    assert np.array_equal(back[:n, :c], x)
    return dev


def ndc1hwc0(x, c0):
    n, c, d, h, w = x.shape
    c1 = -(-c // c0)
    dev = pad_to(x, 1, c0).reshape(n, c1, c0, d, h, w).transpose(0, 3, 1, 4, 5, 2)
    back = dev.transpose(0, 2, 5, 1, 3, 4).reshape(n, c1 * c0, d, h, w)[:, :c]
    assert np.array_equal(back, x)
    return dev


def fractal_nz(x, h0, w0):
    lead = x.shape[:-2]
    hh, ww = x.shape[-2:]
    h1, w1 = -(-hh // h0), -(-ww // w0)
    xp = pad_to(pad_to(x, x.ndim - 2, h0), x.ndim - 1, w0)
    b = int(np.prod(lead)) if lead else 1
    dev = xp.reshape(b, h1, h0, w1, w0).transpose(0, 3, 1, 2, 4)
    back = dev.transpose(0, 2, 3, 1, 4).reshape(b, h1 * h0, w1 * w0)[:, :hh, :ww]
    assert np.array_equal(back.reshape(x.shape), x)
    return dev.reshape(*lead, w1, h1, h0, w0)


def c1hwncoc0(x, c0):
    n, c, h, w = x.shape
    c1 = -(-c // c0)
    y = pad_to(x, 1, c0).reshape(n, c1, c0, h, w).transpose(1, 3, 4, 0, 2)  # (C1, H, W, N, C0)
    dev = np.zeros(y.shape[:4] + (c0, c0), x.dtype)
    for i in range(c0):
        dev[..., i, i] = y[..., i]
    back = np.diagonal(dev, axis1=4, axis2=5).transpose(3, 0, 4, 1, 2).reshape(n, c1 * c0, h, w)[:, :c]
    assert np.array_equal(back, x)
    return dev


def fractal_z_groups(x, groups, cube_k=16):
    """MindSpore FracZToNchwWithGroups run forwards (docs/kernel_dump.md §3.3)."""
    n, cin, h, w = x.shape
    cout = n // groups
    e_mult = min(math.lcm(cin, cube_k) // cin, math.lcm(cout, 16) // cout, groups)
    cin_opt = -(-e_mult * cin // cube_k) * cube_k
    cout_opt = -(-e_mult * cout // 16) * 16
    c1 = cin_opt // cube_k
    g_count = -(-groups // e_mult)
    dev = np.zeros(g_count * c1 * h * w * cout_opt * cube_k, x.dtype)
    for g in range(groups):
        e = g % e_mult
        for c in range(cin):
            for hh in range(h):
                for ww in range(w):
                    for k in range(cout):
                        ci, co = e * cin + c, e * cout + k
                        i = ((g // e_mult) * c1 * h * w * cout_opt * cube_k + (ci // cube_k) * h * w * cout_opt * cube_k
                             + hh * w * cout_opt * cube_k + ww * cout_opt * cube_k + co * cube_k + ci % cube_k)
                        dev[i] = x[g * cout + k, c, hh, ww]
    return dev.reshape(g_count * c1 * h * w, cout_opt // 16, 16, cube_k)


# ---- reference decoders for the dtypes numpy lacks (docs/kernel_dump.md §2.1, §2.4) ----

def f32_to_bf16_bits(x):
    return (np.asarray(x, np.float32).view(np.uint32) >> 16).astype(np.uint16)


def e4m3fn(b):
    s, e, m = (b >> 7) & 1, (b >> 3) & 15, b & 7
    if e == 15 and m == 7:
        return float("nan")
    v = (m / 8) * 2.0 ** -6 if e == 0 else (1 + m / 8) * 2.0 ** (e - 7)
    return -v if s else v


def e5m2(b):
    s, e, m = (b >> 7) & 1, (b >> 2) & 31, b & 3
    if e == 31:
        return float("nan") if m else (-math.inf if s else math.inf)
    v = (m / 4) * 2.0 ** -14 if e == 0 else (1 + m / 4) * 2.0 ** (e - 15)
    return -v if s else v


def main():
    for d in (CASES, EXPECTED, MALFORMED):
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
    ts = "1735011096403740"

    # §1.5 test vector, byte for byte.
    vector = bytes.fromhex(
        "4d00000000000000" "0a03322e30109cbed480bcbf8a031a18080110031a070a0501010102103080013a060a04010301022212"
        "080210021a040a020203280c32040a020203320f44656661756c742f4164642d6f7031")
    fp16 = np.arange(6, dtype=np.float16).reshape(2, 3)
    out = np.zeros((1, 1, 1, 2, 16), np.float32)
    for c in range(3):
        for w in range(2):
            out[0, 0, 0, w, c] = 10 * c + w
    name = f"Add.Default_Add-op1.3.2.{ts}"
    with open(os.path.join(CASES, name), "wb") as f:
        f.write(vector + fp16.tobytes() + out.tobytes())
    assert os.path.getsize(os.path.join(CASES, name)) == 225
    expect(name, "input", 0, "ND", "FLOAT16", fp16)
    expect(name, "output", 0, "NCHW", "FLOAT", np.array([[[[0, 1]], [[10, 11]], [[20, 21]]]], np.float32))

    # Layouts, one file per mapping: (name, dtype, format, host array, device array, target format).
    layouts = []
    x = host_values((2, 20, 3, 5))
    layouts.append(("NC1HWC0", "FLOAT16", "FORMAT_NC1HWC0", x, nc1hwc0(x, 16), "NCHW", 0))
    x = host_values((2, 3, 4, 5), np.float32)
    layouts.append(("NC1HWC0f32", "FLOAT", "FORMAT_NC1HWC0", x, nc1hwc0(x, 16), "NCHW", 0))
    x = host_values((2, 3, 4, 5))
    layouts.append(("NC1HWC0_C04", "FLOAT16", "FORMAT_NC1HWC0_C04", x, nc1hwc0(x, 4), "NCHW", 0))
    x = host_values((20, 18, 3, 2))
    layouts.append(("FRACTAL_Z", "FLOAT16", "FORMAT_FRACTAL_Z", x, fractal_z(x, 16), "NCHW", 0))
    x = host_values((5, 7))  # MindSpore pads [a, b] to NCHW [1, a, b, 1] (correction 2)
    layouts.append(("FRACTAL_Z_2D_ms", "FLOAT16", "FORMAT_FRACTAL_Z", x, fractal_z(x.reshape(1, 5, 7, 1), 16), "ND", 0))
    x = host_values((20, 18))  # GE: (C = a, N = b), h = w = 1
    layouts.append(("FRACTAL_Z_2D_ge", "FLOAT16", "FORMAT_FRACTAL_Z", x,
                    fractal_z(x.T.reshape(18, 20, 1, 1), 16), "ND", 0))
    x = host_values((6, 3, 2, 2))
    layouts.append(("FRACTAL_Z_groups", "FLOAT16", "FORMAT_FRACTAL_Z", x, fractal_z_groups(x, 3), "NCHW", 3))
    x = host_values((17, 5, 2, 3, 2))
    layouts.append(("FRACTAL_Z_3D", "FLOAT16", "FORMAT_FRACTAL_Z_3D", x, fractal_z_3d(x, 16), "NCDHW", 0))
    x = host_values((2, 19, 3, 2, 4))
    layouts.append(("NDC1HWC0", "FLOAT16", "FORMAT_NDC1HWC0", x, ndc1hwc0(x, 16), "NCDHW", 0))
    x = host_values((2, 3, 33, 20))
    layouts.append(("FRACTAL_NZ", "FLOAT16", "FORMAT_FRACTAL_NZ", x, fractal_nz(x, 16, 16), "ND", 0))
    x = host_values((30,))
    layouts.append(("FRACTAL_NZ_1d", "FLOAT16", "FORMAT_FRACTAL_NZ", x,
                    fractal_nz(x.reshape(1, 30), 16, 16).reshape(2, 1, 16, 16), "ND", 0))
    x = host_values((3, 18, 2, 2))
    layouts.append(("C1HWNCoC0", "FLOAT16", "FORMAT_C1HWNCoC0", x, c1hwncoc0(x, 16), "NCHW", 0))
    x = host_values((2, 3, 4, 5))
    layouts.append(("NHWC", "FLOAT16", "FORMAT_NHWC", x, x.transpose(0, 2, 3, 1), "NCHW", 0))
    layouts.append(("HWCN", "FLOAT16", "FORMAT_HWCN", x, x.transpose(2, 3, 1, 0), "NCHW", 0))
    for tag, dtype, fmt, host, dev, target, groups in layouts:
        name = f"Conv2D.Default_{tag}-op1.1.2.{ts}"
        write_bin(CASES, name, outputs=[slot(dtype, fmt, dev.shape, host.shape, dev.tobytes(), groups)])
        expect(name, "output", 0, target, dtype, host)

    # bf16 in FRACTAL_NZ: layout and dtype together; int8 NZ uses 32-wide cubes.
    x = (RNG.standard_normal((17, 40)) * 4).astype(np.float32)
    bits = f32_to_bf16_bits(x)
    name = f"MatMul.Default_bf16_NZ-op1.1.2.{ts}"
    dev = fractal_nz(bits, 16, 16)
    write_bin(CASES, name, outputs=[slot("BF16", "FORMAT_FRACTAL_NZ", dev.shape, x.shape, dev.tobytes())])
    expect(name, "output", 0, "ND", "BF16", (bits.astype(np.uint32) << 16).view(np.float32))
    x = RNG.integers(-128, 128, (20, 40), dtype=np.int8)
    name = f"MatMul.Default_int8_NZ-op1.1.2.{ts}"
    dev = fractal_nz(x, 16, 32)
    write_bin(CASES, name, outputs=[slot("INT8", "FORMAT_FRACTAL_NZ", dev.shape, x.shape, dev.tobytes())])
    expect(name, "output", 0, "ND", "INT8", x)

    # Plain formats, a device layout without converter, and --keep-device-format material.
    x = host_values((2, 3, 4))
    name = f"Reshape.Default_plain-op1.1.2.{ts}"
    ln = host_values((4, 16 * 2))  # FRACTAL_ZN_LSTM: kept as stored
    write_bin(CASES, name, inputs=[slot("FLOAT16", "FORMAT_ND", [24], [2, 3, 4], x.tobytes())],
              outputs=[slot("FLOAT16", "FORMAT_FRACTAL_ZN_LSTM", ln.shape, [4, 30], ln.tobytes()),
                       slot("FLOAT16", "FORMAT_NC1HWC0", [1, 1, 1, 1, 16], None, np.zeros(16, np.float16).tobytes())])
    expect(name, "input", 0, "ND", "FLOAT16", x)
    expect(name, "output", 0, "FRACTAL_ZN_LSTM", "FLOAT16", ln)
    expect(name, "output", 1, "NC1HWC0", "FLOAT16", np.zeros((1, 1, 1, 1, 16), np.float16))

    # Every dtype, ND [2, 3] (int4: [2, 5], an odd count per row, packed low nibble first).
    numeric = {"FLOAT": np.float32, "FLOAT16": np.float16, "DOUBLE": np.float64, "INT8": np.int8, "UINT8": np.uint8,
               "INT16": np.int16, "UINT16": np.uint16, "INT32": np.int32, "UINT32": np.uint32, "INT64": np.int64,
               "UINT64": np.uint64, "BOOL": np.bool_, "COMPLEX64": np.complex64, "COMPLEX128": np.complex128,
               "QINT8": np.int8}
    inputs, outputs, expected = [], [], []
    for dtype, np_type in numeric.items():
        if np_type == np.bool_:
            v = RNG.integers(0, 2, (2, 3)).astype(np.bool_)
        elif np.issubdtype(np_type, np.integer):
            info = np.iinfo(np_type)
            v = RNG.integers(info.min, info.max, (2, 3), dtype=np_type, endpoint=True)
        elif np.issubdtype(np_type, np.complexfloating):
            v = (RNG.standard_normal((2, 3)) + 1j * RNG.standard_normal((2, 3))).astype(np_type)
        else:
            v = RNG.standard_normal((2, 3)).astype(np_type)
        inputs.append(slot(dtype, "FORMAT_ND", [2, 3], [2, 3], v.astype(v.dtype.newbyteorder("<")).tobytes()))
        expected.append(("input", len(inputs) - 1, dtype, v))
    x = (RNG.standard_normal((2, 3)) * 3).astype(np.float32)
    bits = f32_to_bf16_bits(x)
    outputs.append(slot("BF16", "FORMAT_ND", [2, 3], [2, 3], bits.tobytes()))
    expected.append(("output", 0, "BF16", (bits.astype(np.uint32) << 16).view(np.float32)))
    nibbles = RNG.integers(-8, 8, (2, 5))
    flat = list((nibbles & 15).reshape(-1)) + [0]
    packed = bytes(flat[i] | (flat[i + 1] << 4) for i in range(0, 10, 2))
    outputs.append(slot("INT4", "FORMAT_ND", [2, 5], [2, 5], packed))
    expected.append(("output", 1, "INT4", nibbles.astype(np.int8)))
    all_bytes = np.arange(256, dtype=np.uint8).reshape(16, 16)
    outputs.append(slot("FLOAT8_E4M3FN", "FORMAT_ND", [16, 16], [16, 16], all_bytes.tobytes()))
    expected.append(("output", 2, "FLOAT8_E4M3FN", np.array([[e4m3fn(int(b)) for b in r] for r in all_bytes], np.float32)))
    outputs.append(slot("FLOAT8_E5M2", "FORMAT_ND", [16, 16], [16, 16], all_bytes.tobytes()))
    expected.append(("output", 3, "FLOAT8_E5M2", np.array([[e5m2(int(b)) for b in r] for r in all_bytes], np.float32)))
    c32 = RNG.standard_normal((2, 3, 2)).astype(np.float16)
    outputs.append(slot("COMPLEX32", "FORMAT_ND", [2, 3], [2, 3], c32.tobytes()))
    expected.append(("output", 4, "COMPLEX32", (c32[..., 0].astype(np.float32) + 1j * c32[..., 1].astype(np.float32)).astype(np.complex64)))
    outputs.append(slot("STRING", "FORMAT_ND", [3], [3], b"abc"))  # no decoder: skipped
    outputs.append(slot("FLOAT", "FORMAT_ND", [0, 3], [0, 3], b""))
    expected.append(("output", 6, "FLOAT", np.zeros((0, 3), np.float32)))
    name = f"Cast.Default_dtypes-op1.1.2.{ts}"
    write_bin(CASES, name, inputs=inputs, outputs=outputs,
              extra='buffer { buffer_type: L1 size: 4 } attr { name: "x" value: "{}" } space { size: 3 }',
              tail=b"")
    # buffers/workspaces follow the tensors: append their bytes.
    with open(os.path.join(CASES, name), "ab") as f:
        f.write(b"\x01\x02\x03\x04" + b"\x05\x06\x07")
    for io, idx, dtype, v in expected:
        expect(name, io, idx, "ND", dtype, v)

    # Malformed files, named by their defect.
    good = slot("FLOAT", "FORMAT_ND", [2], [2], np.ones(2, np.float32).tobytes())
    write_bin(MALFORMED, f"Add.header_past_eof.1.2.{ts}", outputs=[good], header_length=4096)
    write_bin(MALFORMED, f"Add.size_mismatch.1.2.{ts}",
              outputs=[slot("FLOAT", "FORMAT_ND", [3], [3], np.ones(2, np.float32).tobytes())])
    write_bin(MALFORMED, f"Add.zero_dims.1.2.{ts}",
              outputs=[slot("FLOAT", "FORMAT_ND", [2, 0, 3], [2, 0, 3], np.ones(2, np.float32).tobytes())])
    write_bin(MALFORMED, f"Add.negative_sub_format.1.2.{ts}", outputs=[dict(good, sub_format=-3)])
    write_bin(MALFORMED, f"Add.huge_dims.1.2.{ts}",
              outputs=[slot("FLOAT", "FORMAT_ND", [2**40, 2**40], [2], np.ones(2, np.float32).tobytes())])
    write_bin(MALFORMED, f"Add.unknown_dim.1.2.{ts}",
              outputs=[slot("FLOAT", "FORMAT_ND", [2**64 - 1], [2], np.ones(2, np.float32).tobytes())])
    path = os.path.join(MALFORMED, f"Add.truncated.1.2.{ts}")
    write_bin(MALFORMED, f"Add.truncated.1.2.{ts}", inputs=[good], outputs=[good])
    with open(path, "r+b") as f:
        f.truncate(os.path.getsize(path) - 3)
    with open(os.path.join(MALFORMED, f"Add.nano.1.2.{ts}"), "wb") as f:
        f.write(struct.pack("<QII", 8, 0x5A5A5A5A, 1) + bytes(8))
    with open(os.path.join(MALFORMED, "intensor0.bin"), "wb") as f:
        f.write(b"$Version=1.0\n$Object.Count=1\ndtype=0\ndims=2\n$End=1\n" + bytes(8))
    with open(os.path.join(MALFORMED, f"Add.short.1.2.{ts}"), "wb") as f:
        f.write(b"\x05\x00\x00")
    with open(os.path.join(MALFORMED, f"Add.bad_protobuf.1.2.{ts}"), "wb") as f:
        f.write(struct.pack("<Q", 4) + b"\x1a\x7f\x08\x01")  # output of 127 bytes in a 4-byte header


if __name__ == "__main__":
    main()
