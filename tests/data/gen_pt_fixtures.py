#!/usr/bin/python3
"""Makes the .pt fixtures under tests/data/pt/ and their expected values (expected.json).

Run once with Debian's python3 + torch 1.13 from the repository root:
    /usr/bin/python3 tests/data/gen_pt_fixtures.py
Native files are written by torch.save. torch-2.x style files (byteorder, .format_version,
.storage_alignment, .data/version, .data/serialization_id, _rebuild_tensor_v3, 7-argument
_rebuild_tensor_v2, zip64 records) are synthesised: the pickle is emitted opcode by opcode (checked
against torch 1.13's own bytes for the v2 case) and the zip is laid out the way torch's writer does
(flag 0x0808, data descriptors, 64-byte aligned data with an "FB" padding extra in the local header
only). Expected values come from torch (t.tolist()); for float8, which torch 1.13 lacks, from the
OCP FP8 E4M3FN definition. If ../shared/data/msprobe_samples/pt_npy exists, its tensors' values are
also recorded (shared_expected.json) by torch.load.
"""
import io
import json
import os
import pickletools
import struct
import sys
import zipfile
import zlib

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "pt")
SHARED = os.path.join(HERE, "..", "..", "..", "shared", "data", "msprobe_samples", "pt_npy")

expected = {}


def flat_values(t):
    """Elements in C order: numbers for real dtypes, [re, im] pairs flattened for complex."""
    t = t.detach()
    if t.is_complex():
        return torch.view_as_real(t.contiguous()).reshape(-1).tolist()
    if t.dtype == torch.bool:
        return [int(v) for v in t.reshape(-1).tolist()]
    if t.dtype in (torch.float16, torch.bfloat16):
        return t.double().reshape(-1).tolist()
    return t.reshape(-1).tolist()


def record(name, t, **extra):
    entry = {
        "dtype": str(t.dtype).replace("torch.", ""),
        "shape": list(t.shape),
        "strides": list(t.stride()),
        "storage_offset": t.storage_offset(),
        "storage_elements": t.storage().size(),
        "requires_grad": t.requires_grad,
        "big_endian": False,
        "values": flat_values(t),
    }
    entry.update(extra)
    expected[name] = entry


def save_native(name, t, record_it=True):
    path = os.path.join(OUT, name + ".pt")
    torch.save(t, path)
    back = torch.load(path)
    if record_it:
        assert torch.equal(back, t.detach()) or back.numel() == 0
        record(name, t)
    return path


def reject(name, obj, kind, needle, **kwargs):
    torch.save(obj, os.path.join(OUT, name + ".pt"), **kwargs)
    expected[name] = {"error": kind, "needle": needle}


# ---- pickle emitter (protocol 2, the opcodes torch.save uses) ----
class Pickle:
    def __init__(self):
        self.b = bytearray(b"\x80\x02")
        self.memo = 0

    def put(self):
        self.b += b"q" + bytes([self.memo]) if self.memo < 256 else b"r" + struct.pack("<I", self.memo)
        self.memo += 1

    def glob(self, module, name):
        self.b += b"c" + f"{module}\n{name}\n".encode()
        self.put()

    def string(self, s):
        e = s.encode()
        self.b += b"X" + struct.pack("<I", len(e)) + e
        self.put()

    def integer(self, v):
        if 0 <= v < 256:
            self.b += b"K" + bytes([v])
        elif 0 <= v < 65536:
            self.b += b"M" + struct.pack("<H", v)
        elif -(2**31) <= v < 2**31:
            self.b += b"J" + struct.pack("<i", v)
        else:
            n = (v.bit_length() + 8) // 8
            self.b += b"\x8a" + bytes([n]) + v.to_bytes(n, "little", signed=True)

    def boolean(self, v):
        self.b += b"\x88" if v else b"\x89"

    def tuple_of_ints(self, vals):
        if len(vals) == 0:
            self.b += b")"
            return
        if len(vals) > 3:
            self.b += b"("
        for v in vals:
            self.integer(v)
        self.b += {1: b"\x85", 2: b"\x86", 3: b"\x87"}.get(len(vals), b"t")
        self.put()

    def mark(self):
        self.b += b"("

    def stop(self):
        self.b += b"."
        return bytes(self.b)


def tensor_pickle(storage_cls, key, numel, offset, size, stride, requires_grad,
                  v3_dtype=None, metadata=None):
    p = Pickle()
    p.glob("torch._utils", "_rebuild_tensor_v3" if v3_dtype else "_rebuild_tensor_v2")
    p.mark()
    p.mark()
    p.string("storage")
    p.glob("torch", storage_cls)
    p.string(key)
    p.string("cpu")
    p.integer(numel)
    p.b += b"t"
    p.put()
    p.b += b"Q"
    p.integer(offset)
    p.tuple_of_ints(size)
    p.tuple_of_ints(stride)
    p.boolean(requires_grad)
    p.glob("collections", "OrderedDict")
    p.b += b")R"
    p.put()
    if v3_dtype:
        p.glob("torch", v3_dtype)
    if metadata is not None:
        p.b += b"}"
        p.put()
        p.mark()
        for k, v in metadata.items():
            p.string(k)
            p.boolean(v)
        p.b += b"u"
    p.b += b"t"
    p.put()
    p.b += b"R"
    p.put()
    return p.stop()


# ---- zip writer laid out like torch's PyTorchStreamWriter (miniz) ----
def torch_zip(members, zip64=False):
    out = bytearray()
    central = bytearray()
    for name, data in members:
        nb = name.encode()
        off = len(out)
        base_extra = struct.pack("<HHQQ", 1, 16, len(data), len(data)) if zip64 else b""
        pad = (-(off + 30 + len(nb) + len(base_extra) + 4)) % 64
        extra = base_extra + b"FB" + struct.pack("<H", pad) + b"Z" * pad
        size32 = 0xFFFFFFFF if zip64 else 0
        out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 45 if zip64 else 20, 0x0808, 0, 0, 0x21, 0,
                           size32, size32, len(nb), len(extra)) + nb + extra
        assert len(out) % 64 == 0
        out += data
        crc = zlib.crc32(data)
        if zip64:
            out += struct.pack("<IIQQ", 0x08074B50, crc, len(data), len(data))
            cextra = struct.pack("<HHQQQ", 1, 24, len(data), len(data), off)
            csize, coff = 0xFFFFFFFF, 0xFFFFFFFF
        else:
            out += struct.pack("<IIII", 0x08074B50, crc, len(data), len(data))
            cextra, csize, coff = b"", len(data), off
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 45, 45, 0x0808, 0, 0, 0x21, crc,
                               csize, csize, len(nb), len(cextra), 0, 0, 0, 0, coff) + nb + cextra
    cd_off, cd_size, n = len(out), len(central), len(members)
    out += central
    if zip64:
        eocd64 = len(out)
        out += struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, n, n, cd_size, cd_off)
        out += struct.pack("<IIQI", 0x07064B50, 0, eocd64, 1)
        out += struct.pack("<IHHHHIIH", 0x06054B50, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF,
                           0xFFFFFFFF, 0xFFFFFFFF, 0)
    else:
        out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, n, n, cd_size, cd_off, 0)
    return bytes(out)


def members_of(path):
    with zipfile.ZipFile(path) as z:
        return [(i.filename, z.read(i.filename)) for i in z.infolist()]


def write(name, data):
    path = os.path.join(OUT, name + ".pt")
    with open(path, "wb") as f:
        f.write(data)
    with zipfile.ZipFile(path) as z:  # Python's own reader must accept it
        assert z.testzip() is None
    return path


def tagged(v):
    """A JSON form that keeps Python's types apart: {"t": [...]} tuple, {"d": [[k, v], ...]} dict..."""
    if v is None:
        return {"n": None}
    if isinstance(v, bool):
        return {"b": v}
    if isinstance(v, int):
        return {"i": v}
    if isinstance(v, float):
        return {"f": v}
    if isinstance(v, str):
        return {"s": v}
    if isinstance(v, tuple):
        return {"t": [tagged(x) for x in v]}
    if isinstance(v, list):
        return {"l": [tagged(x) for x in v]}
    if isinstance(v, dict):
        return {"d": [[tagged(k), tagged(x)] for k, x in v.items()]}
    raise TypeError(v)


def pickle_cases():
    import pickle
    shared = [1, 2]
    values = [None, True, False, 0, 1, 255, 256, 65535, 65536, -1, -256, 2**31 - 1, -(2**31), 2**31,
              2**40 + 3, -(2**40), 2**63 - 1, -(2**63), 1.5, -0.1, 1e300, "", "storage", "caf\u00e9",
              (), (1,), (1, 2), (1, 2, 3), (1, 2, 3, 4), [], [1, "a", None], {}, {"a": 1, "b": (2.5,)},
              {"k": [shared, shared], "t": (shared,)}, [(1, [2, {"x": (3,)}])], [[[[[]]]]]]
    cases = []
    for v in values:
        for proto in (0, 1, 2):
            data = pickle.dumps(v, protocol=proto)
            assert pickle.loads(data) == v
            cases.append({"protocol": proto, "hex": data.hex(), "value": tagged(v)})
    return cases


def main():
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        os.remove(os.path.join(OUT, f))
    torch.manual_seed(7)

    # ---- native torch 1.13 files ----
    f32 = torch.tensor([[1.5, -2.25, 3.0], [0.125, -0.0, 1e-3]], dtype=torch.float32)
    save_native("f32", f32)
    save_native("f16", torch.tensor([1.0, -0.5, 65504.0, 6e-8, 0.333], dtype=torch.float16))
    save_native("bf16", torch.tensor([[1.0, -3.5], [1e30, 0.0078125]], dtype=torch.bfloat16))
    save_native("f64", torch.tensor([3.141592653589793, -1e-300, 2.5], dtype=torch.float64))
    save_native("u8", torch.arange(300, dtype=torch.int32).remainder(256).to(torch.uint8))  # numel 300: BININT2
    save_native("i8", torch.tensor([-128, -1, 0, 127], dtype=torch.int8))
    save_native("i16", torch.tensor([-32768, 12345, 32767], dtype=torch.int16))
    save_native("i32", torch.tensor([[-2147483648, 7], [2147483647, -9]], dtype=torch.int32))
    save_native("i64", torch.tensor([-(2**62), 2**53 + 1, 42], dtype=torch.int64))
    save_native("bool", torch.tensor([True, False, True, True]))
    save_native("c64", torch.tensor([1 + 2j, -3.5 - 0.25j], dtype=torch.complex64))
    save_native("c128", torch.tensor([[0.1 + 0.2j], [-7 + 1e-10j]], dtype=torch.complex128))
    save_native("scalar_i64", torch.tensor(-17, dtype=torch.int64))
    save_native("empty_f32", torch.zeros(2, 0, dtype=torch.float32))
    base = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    save_native("view", base[1:, 1:3])  # storage offset 5, strides (4, 1), storage of 12
    save_native("transposed", torch.arange(6, dtype=torch.int16).reshape(2, 3).t())  # strides (1, 3)
    save_native("req_grad", torch.tensor([0.5, 0.25], requires_grad=True))

    # ---- not a single tensor, or not a zip ----
    reject("dict", {"a": f32, "b": torch.ones(1)}, "unsupported", "dict")
    reject("list", [f32, torch.ones(1)], "unsupported", "list")
    reject("parameter", torch.nn.Parameter(torch.ones(2)), "unsupported", "_rebuild_parameter")
    reject("legacy", f32, "unsupported", "legacy (non-zip)", _use_new_zipfile_serialization=False)
    q = torch.quantize_per_tensor(torch.tensor([0.5, 1.0]), 0.5, 0, torch.qint8)
    reject("quantized", q, "unsupported", "_rebuild_qtensor")

    # ---- torch-2.x style files synthesised from torch 1.13 ones ----
    native = members_of(os.path.join(OUT, "f32.pt"))
    pkl = dict(native)["f32/data.pkl"]
    mine = tensor_pickle("FloatStorage", "0", 6, 0, [2, 3], [3, 1], False)
    assert mine == pkl, "the pickle emitter must reproduce torch 1.13's bytes"
    data0 = dict(native)["f32/data/0"]

    def t2x(prefix, pickle_bytes, storage, order=b"little", extra_members=True):
        members = [(prefix + "data.pkl", pickle_bytes)]
        if extra_members:
            members += [(prefix + ".format_version", b"1"), (prefix + ".storage_alignment", b"64")]
        members += [(prefix + "byteorder", order), (prefix + "data/0", storage)]
        if extra_members:
            members += [(prefix + ".data/version", b"3\n"),
                        (prefix + ".data/serialization_id", b"1234567890123456789012345678901234567890")]
        else:
            members += [(prefix + "version", b"3\n")]
        return members

    path = write("byteorder_little", torch_zip(t2x("byteorder_little/", pkl, data0, extra_members=False)))
    assert torch.equal(torch.load(path), f32)
    record("byteorder_little", f32)

    swapped = b"".join(data0[i:i + 4][::-1] for i in range(0, len(data0), 4))
    write("byteorder_big", torch_zip(t2x("byteorder_big/", pkl, swapped, order=b"big", extra_members=False)))
    record("byteorder_big", f32, big_endian=True)

    i16 = torch.tensor([[1, -2], [300, -32768]], dtype=torch.int16)
    i16_data = i16.numpy().astype(">i2").tobytes()
    write("byteorder_big_i16", torch_zip(t2x("byteorder_big_i16/", tensor_pickle(
        "ShortStorage", "0", 4, 0, [2, 2], [2, 1], False), i16_data, order=b"big", extra_members=False)))
    record("byteorder_big_i16", i16, big_endian=True)

    path = write("torch26_members", torch_zip(t2x("torch26_members/", pkl, data0)))
    assert torch.equal(torch.load(path), f32)
    record("torch26_members", f32)

    path = write("archive_prefix", torch_zip(t2x("archive/", pkl, data0)))
    assert torch.equal(torch.load(path), f32)
    record("archive_prefix", f32)

    # Old writers put `version` first: the folder still comes from the first entry.
    path = write("version_first", torch_zip([("version_first/version", b"3\n"),
                                             ("version_first/data.pkl", pkl),
                                             ("version_first/data/0", data0)]))
    assert torch.equal(torch.load(path), f32)
    record("version_first", f32)

    path = write("zip64", torch_zip(t2x("zip64/", pkl, data0, extra_members=False), zip64=True))
    assert torch.equal(torch.load(path), f32)
    record("zip64", f32)

    # 7-argument _rebuild_tensor_v2 (torch_npu style metadata dict, ignored by readers).
    meta = tensor_pickle("FloatStorage", "0", 6, 0, [2, 3], [3, 1], False,
                         metadata={"npu_private_format": False})
    write("v2_metadata", torch_zip(t2x("v2_metadata/", meta, data0)))
    record("v2_metadata", f32)

    # _rebuild_tensor_v3 with UntypedStorage (numel in bytes) and a float8_e4m3fn dtype GLOBAL. Values
    # from the OCP FP8 E4M3FN definition: 0x38 = 1, 0xb8 = -1, 0x40 = 2, 0x30 = 0.5, 0x7e = 448,
    # 0x01 = 2^-9, 0x00 = 0, 0x44 = 3.
    f8_bytes = bytes([0x38, 0xB8, 0x40, 0x30, 0x7E, 0x01, 0x00, 0x44])
    f8_vals = [1.0, -1.0, 2.0, 0.5, 448.0, 2.0**-9, 0.0, 3.0]
    v3 = tensor_pickle("UntypedStorage", "0", 8, 2, [2, 3], [3, 1], False, v3_dtype="float8_e4m3fn")
    write("v3_float8_e4m3fn", torch_zip(t2x("v3_float8_e4m3fn/", v3, f8_bytes)))
    expected["v3_float8_e4m3fn"] = {
        "dtype": "float8_e4m3fn", "shape": [2, 3], "strides": [3, 1], "storage_offset": 2,
        "storage_elements": 8, "requires_grad": False, "big_endian": False, "values": f8_vals[2:8]}

    # A quantized storage class inside an ordinary _rebuild_tensor_v2.
    write("quantized_storage", torch_zip(t2x("quantized_storage/", tensor_pickle(
        "QInt8Storage", "0", 4, 0, [4], [1], False), b"\x01\x02\x03\x04", extra_members=False)))
    expected["quantized_storage"] = {"error": "unsupported", "needle": "QInt8Storage"}

    # A deflated member: only stored members can be handed out as byte ranges.
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("compressed/data.pkl", pkl, compress_type=zipfile.ZIP_STORED)
        z.writestr("compressed/data/0", data0, compress_type=zipfile.ZIP_DEFLATED)
        z.writestr("compressed/version", b"3\n")
    write("compressed", buf.getvalue())
    expected["compressed"] = {"error": "unsupported", "needle": "compressed"}

    with open(os.path.join(OUT, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True)
        f.write("\n")

    # ---- pickles written by Python's own pickle module, protocols 0-2, with their values ----
    with open(os.path.join(OUT, "pickle_cases.json"), "w") as f:
        json.dump(pickle_cases(), f, indent=0)
        f.write("\n")

    # ---- values of the shared samples, if present ----
    if os.path.isdir(SHARED):
        shared = {}
        for fname in sorted(os.listdir(SHARED)):
            if not fname.endswith(".pt") or fname == "legacy.pt":
                continue
            t = torch.load(os.path.join(SHARED, fname))
            shared[fname] = {"dtype": str(t.dtype).replace("torch.", ""), "shape": list(t.shape),
                             "strides": list(t.stride()), "storage_offset": t.storage_offset(),
                             "storage_elements": t.storage().size(), "requires_grad": t.requires_grad,
                             "sum": float(t.double().sum()) if not t.is_complex() else None,
                             "values": flat_values(t) if t.numel() <= 256 else flat_values(t)[:16]}
        with open(os.path.join(OUT, "shared_expected.json"), "w") as f:
            json.dump(shared, f, sort_keys=True)
            f.write("\n")

    total = sum(os.path.getsize(os.path.join(OUT, f)) for f in os.listdir(OUT))
    print(f"{len(os.listdir(OUT))} files, {total} bytes in {OUT}")


if __name__ == "__main__":
    sys.exit(main())
