#!/usr/bin/python3
# Regenerates expected.json for tests/libdump/formats/pt_writer_test.cc with torch (Debian 12's
# python3-torch 1.13): for each case, the tensor's storage bytes and the data.pkl torch.save writes
# for it. The test writes the same bytes with our PtWriter and checks pt_reader reads them back and
# our data.pkl is byte-identical to torch's. Run from this directory: /usr/bin/python3 gen_expected.py
import io, json, zipfile
import torch

def case(name, t):
    buf = io.BytesIO()
    torch.save(t, buf)
    z = zipfile.ZipFile(io.BytesIO(buf.getvalue()))
    pkl = next(n for n in z.namelist() if n.endswith("/data.pkl"))
    raw = t.view(torch.int16) if t.dtype == torch.bfloat16 else t
    return {"name": name, "dtype": str(t.dtype).replace("torch.", ""), "shape": list(t.shape),
            "storage_hex": raw.contiguous().numpy().tobytes().hex(), "data_pkl_hex": z.read(pkl).hex()}

cases = [
    case("f32_2x3", torch.arange(6, dtype=torch.float32).reshape(2, 3) * 0.5 - 1),
    case("f16_4", torch.tensor([1.0, -2.5, 65504.0, float("inf")], dtype=torch.float16)),
    case("bf16_2x2", torch.tensor([[1.0, -0.0078125], [3.0e38, float("nan")]], dtype=torch.bfloat16)),
    case("i64_3", torch.tensor([-5, 1 << 40, 300], dtype=torch.int64)),
    case("bool_5", torch.tensor([True, False, False, True, True])),
    case("f32_scalar", torch.tensor(3.25, dtype=torch.float32)),
    case("f32_0x3", torch.zeros(0, 3, dtype=torch.float32)),
    case("i64_1x2x1x2", torch.tensor([7, -8, 9, 70000], dtype=torch.int64).reshape(1, 2, 1, 2)),
    case("f32_300x1", torch.linspace(-1, 1, 300, dtype=torch.float32).reshape(300, 1)),
]
with open("expected.json", "w") as f:
    json.dump({"torch": torch.__version__, "cases": cases}, f, indent=1)
    f.write("\n")
