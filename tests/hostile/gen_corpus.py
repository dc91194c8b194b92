#!/usr/bin/env python3
"""Writes the hostile-input corpus into a scratch directory (never into the source tree).

    gen_corpus.py MSPROBE_ROOT MSPROBE_BIN WORKDIR

WORKDIR/shared holds pristine copies of the sample dumps the cases compare against;
WORKDIR/cases/<setup>/ holds one corrupted input per setup named in cases.tsv. Everything is made
at test time: the cases copy and corrupt the small real dumps of samples/dist2 and tests/data, and
several are FIFOs or symlinks, which git cannot keep portably. Only the standard library is used.
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import zipfile

ROOT, BIN, WORK = (os.path.abspath(a) for a in sys.argv[1:4])
SAMPLES = os.path.join(ROOT, "samples", "dist2")
NPU0 = os.path.join(SAMPLES, "npu_t", "step0", "rank0")
BENCH0 = os.path.join(SAMPLES, "bench_t", "step0", "rank0")
KERNEL = os.path.join(ROOT, "tests", "data", "kernel")
BINS = os.path.join(ROOT, "tests", "data", "bin")
ADD_BIN = "Add.Default_Add-op1.3.2.1735011096403740"
PT = "Functional.linear.0.forward.input.0.pt"
SETUPS = {}


def setup(fn):
    SETUPS[fn.__name__] = fn
    return fn


def copytree(src, dst):
    shutil.copytree(src, dst, symlinks=True)
    for d, _, files in os.walk(dst):
        os.chmod(d, 0o755)
        for f in files:
            p = os.path.join(d, f)
            if not os.path.islink(p):
                os.chmod(p, 0o644)


def rank0(c):
    """A writable copy of the NPU rank0 dump at c/n."""
    copytree(NPU0, os.path.join(c, "n"))
    return os.path.join(c, "n")


def edit(path, old, new, count=1):
    data = open(path, "rb").read()
    old = old.encode() if isinstance(old, str) else old
    new = new.encode() if isinstance(new, str) else new
    assert old in data, f"{path}: {old!r} not found"
    open(path, "wb").write(data.replace(old, new, count))


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, "wb").write(data.encode() if isinstance(data, str) else data)


def dump_json(c):
    return os.path.join(rank0(c), "dump.json")


# --- text in dump.json ------------------------------------------------------------------------
@setup
def key_invalid_utf8(c):
    edit(dump_json(c), '"Functional.linear.0.forward"', b'"Functional.linear\xff\xfe.0.forward"')


@setup
def data_name_invalid_utf8(c):
    edit(dump_json(c), '"data_name": "Functional.linear.0.forward.input.0.pt"',
         b'"data_name": "Functional.linear.0.forward.input\xff.0.pt"')


@setup
def key_overlong_utf8(c):
    # an overlong '/' (C0 AF) and an overlong NUL (C0 80)
    edit(dump_json(c), '"Functional.linear.0.forward"', b'"Functional.linear\xc0\xaf\xc0\x80.0.forward"')


@setup
def key_surrogate_utf8(c):
    # a UTF-16 surrogate encoded as UTF-8 (ED A0 80): not valid UTF-8
    edit(dump_json(c), '"Functional.linear.0.forward"', b'"Functional.linear\xed\xa0\x80.0.forward"')


@setup
def data_name_nul(c):
    edit(dump_json(c), '"data_name": "Functional.linear.0.forward.input.0.pt"',
         '"data_name": "Functional.linear.0.forward.input.0.pt\\u0000x"')


@setup
def key_nonchar(c):
    d = rank0(c)
    edit(os.path.join(d, "dump.json"), '"Functional.linear.0.forward"', '"Functional.linear\\ufffe\\uffff.0.forward"')
    # the stack of the renamed key too, so the non-characters reach every output column
    edit(os.path.join(d, "stack.json"), '"Functional.linear.0.forward"', '"Functional.linear\\ufffe\\uffff.0.forward"')


@setup
def key_lone_surrogate_escape(c):
    # "\ud800" alone: Python's json accepts it, but it is no UTF-8 character
    edit(dump_json(c), '"Functional.linear.0.forward"', '"Functional.linear\\ud800.0.forward"')


# --- dump.json structure --------------------------------------------------------------------
@setup
def truncated_json(c):
    p = dump_json(c)
    data = open(p, "rb").read()
    open(p, "wb").write(data[: len(data) // 2])


@setup
def json_array(c):
    write(dump_json(c), '[{"task": "tensor"}, 1, 2]')


@setup
def json_number(c):
    write(dump_json(c), "42")


@setup
def json_empty(c):
    write(dump_json(c), "")


@setup
def json_deep_array(c):
    write(dump_json(c), "[" * 100000 + "]" * 100000)


@setup
def json_deep_in_data(c):
    head = '{"task": "tensor", "level": "L1", "framework": "pytorch", "data": {"Functional.relu.0.forward": {"input_args": '
    write(dump_json(c), head + "[" * 100000 + "]" * 100000 + "}}}")


@setup
def json_deep_object(c):
    write(dump_json(c), '{"a": ' * 100000 + "1" + "}" * 100000)


@setup
def json_bom(c):
    p = dump_json(c)
    open(p, "wb").write(b"\xef\xbb\xbf" + open(p, "rb").read())


@setup
def json_trailing_garbage(c):
    p = dump_json(c)
    open(p, "ab").write(b"\n} garbage")


@setup
def json_data_not_object(c):
    write(dump_json(c), '{"task": "tensor", "level": "L1", "framework": "pytorch", "data": [1, 2, 3]}')


@setup
def json_huge_number(c):
    edit(dump_json(c), '"Max": 1.4793050289154053', '"Max": 1e999999')


@setup
def entry_null(c):
    p = dump_json(c)
    doc = json.load(open(p))
    doc["data"]["Functional.linear.0.forward"] = None
    json.dump(doc, open(p, "w"), indent=1)


def set_shape(c, shape):
    p = dump_json(c)
    doc = json.load(open(p))
    doc["data"]["Functional.linear.0.forward"]["input_args"][0]["shape"] = shape
    json.dump(doc, open(p, "w"), indent=1)


@setup
def shape_absurd(c):
    set_shape(c, [2**62, 2**62])


@setup
def shape_negative(c):
    set_shape(c, [-1, 8])


@setup
def shape_overflow_u64(c):
    set_shape(c, [2**64 + 5, 3])


@setup
def dup_key_max(c):
    # Max twice: Python's json keeps the last value, 99.5
    edit(dump_json(c), '"Max": 1.4793050289154053,', '"Max": 1.4793050289154053, "Max": 99.5,')


@setup
def dup_key_max_stat(c):
    # a statistics dump, where the compare shows the json's Max: Python keeps the last value, 99.5
    p = dump_json(c)
    edit(p, '"task": "tensor",', '"task": "statistics",')
    edit(p, '"Max": 1.4793050289154053,', '"Max": 1.4793050289154053, "Max": 99.5,')
    copytree(BENCH0, os.path.join(c, "g"))
    edit(os.path.join(c, "g", "dump.json"), '"task": "tensor",', '"task": "statistics",')


@setup
def dup_key_task_last_tensor(c):
    edit(dump_json(c), '"task": "tensor",', '"task": "statistics", "task": "tensor",')


@setup
def dup_key_task_last_statistics(c):
    edit(dump_json(c), '"task": "tensor",', '"task": "tensor", "task": "statistics",')


@setup
def dup_api_key(c):
    # the same API twice in "data": the second entry wins, as in Python
    p = dump_json(c)
    text = open(p).read()
    doc = json.loads(text)
    entry = json.dumps(doc["data"]["Functional.linear.0.forward"])
    edit(p, '"data": {', '"data": {"Functional.linear.0.forward": ' + entry.replace("torch.float32", "torch.float16") + ", ")


# --- data_name and tensor files -------------------------------------------------------------
def set_data_name(c, name):
    edit(dump_json(c), f'"data_name": "{PT}"', json.dumps({"data_name": name})[1:-1])


@setup
def data_name_absolute(c):
    set_data_name(c, "/etc/passwd")


@setup
def data_name_dotdot(c):
    set_data_name(c, "../../dump.json")


@setup
def data_name_separator(c):
    d = rank0(c)
    os.makedirs(os.path.join(d, "dump_tensor_data", "sub"))
    shutil.copy(os.path.join(d, "dump_tensor_data", PT), os.path.join(d, "dump_tensor_data", "sub", PT))
    edit(os.path.join(d, "dump.json"), f'"data_name": "{PT}"', f'"data_name": "sub/{PT}"')


@setup
def data_name_backslash(c):
    set_data_name(c, "..\\..\\dump.json")


@setup
def data_name_empty(c):
    set_data_name(c, "")


@setup
def data_name_dot(c):
    set_data_name(c, ".")


@setup
def data_name_long(c):
    set_data_name(c, "x" * 5000 + ".pt")


@setup
def symlink_leaves_dir(c):
    d = rank0(c)
    outside = os.path.join(c, "outside")
    os.makedirs(outside)
    t = os.path.join(d, "dump_tensor_data", PT)
    shutil.move(t, os.path.join(outside, PT))
    os.symlink(os.path.join("..", "..", "outside", PT), t)


def replace_in_rank0(c, rel, make):
    """Replaces rank0's file `rel` with what make(path) creates (a FIFO, a directory, a symlink)."""
    path = os.path.join(rank0(c), rel)
    os.remove(path)
    make(path)


@setup
def symlink_loop(c):
    replace_in_rank0(c, os.path.join("dump_tensor_data", PT), lambda t: os.symlink(PT, t))  # points at itself


@setup
def symlink_to_dev_zero(c):
    replace_in_rank0(c, os.path.join("dump_tensor_data", PT), lambda t: os.symlink("/dev/zero", t))


@setup
def tensor_dir_symlink_outside(c):
    d = rank0(c)
    shutil.move(os.path.join(d, "dump_tensor_data"), os.path.join(c, "elsewhere"))
    os.symlink(os.path.join("..", "elsewhere"), os.path.join(d, "dump_tensor_data"))


@setup
def tensor_is_dir(c):
    replace_in_rank0(c, os.path.join("dump_tensor_data", PT), os.makedirs)


@setup
def fifo_dump_json(c):
    replace_in_rank0(c, "dump.json", os.mkfifo)


@setup
def fifo_tensor(c):
    replace_in_rank0(c, os.path.join("dump_tensor_data", PT), os.mkfifo)


@setup
def fifo_stack_json(c):
    replace_in_rank0(c, "stack.json", os.mkfifo)


@setup
def dump_json_dir(c):
    replace_in_rank0(c, "dump.json", os.makedirs)


@setup
def stack_json_malformed(c):
    write(os.path.join(rank0(c), "stack.json"), '{"Functional.linear.0.forward": [1, {"x": ')


@setup
def stack_json_group_not_a_pair(c):
    write(os.path.join(rank0(c), "stack.json"), '{"0": "notalist"}')


def tensor(c):
    return os.path.join(rank0(c), "dump_tensor_data", PT)


@setup
def pt_local_header_other_name(c):
    # the local header of data/0 names data/1 (same length): the central directory and the local
    # header disagree about what the member is
    t = tensor(c)
    z = zipfile.ZipFile(t)
    info = [i for i in z.infolist() if i.filename.endswith("/data/0")][0]
    z.close()
    data = bytearray(open(t, "rb").read())
    off = info.header_offset
    assert data[off : off + 4] == b"PK\x03\x04"
    name_len = struct.unpack_from("<H", data, off + 26)[0]
    name = bytes(data[off + 30 : off + 30 + name_len])
    assert name.endswith(b"/data/0"), name
    data[off + 30 : off + 30 + name_len] = name[:-1] + b"1"
    open(t, "wb").write(bytes(data))


@setup
def pt_local_header_huge_extra(c):
    t = tensor(c)
    z = zipfile.ZipFile(t)
    info = [i for i in z.infolist() if i.filename.endswith("/data/0")][0]
    z.close()
    data = bytearray(open(t, "rb").read())
    struct.pack_into("<H", data, info.header_offset + 28, 0xFFFF)  # extra field length past EOF
    open(t, "wb").write(bytes(data))


@setup
def pt_truncated(c):
    t = tensor(c)
    z = zipfile.ZipFile(t)
    info = [i for i in z.infolist() if i.filename.endswith("/data/0")][0]
    z.close()
    data = open(t, "rb").read()
    open(t, "wb").write(data[: info.header_offset + 30 + len(info.filename) + 40])


@setup
def pt_not_zip(c):
    write(tensor(c), b"\x80\x02" + b"\x00" * 100)


@setup
def pt_empty(c):
    write(tensor(c), b"")


def npy(shape_text, payload, descr="<f4"):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape_text)
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + payload


@setup
def npy_cases(c):
    good = npy("(4, 4)", struct.pack("<16f", *range(16)))
    write(os.path.join(c, "good.npy"), good)
    write(os.path.join(c, "truncated.npy"), good[: len(good) - 20])
    write(os.path.join(c, "huge_shape.npy"), npy("(4611686018427387904, 4611686018427387904)", b"\0" * 64))
    write(os.path.join(c, "huge_1d.npy"), npy("(1099511627776,)", b"\0" * 64))
    write(os.path.join(c, "negative_shape.npy"), npy("(-1, 4)", b"\0" * 64))
    write(os.path.join(c, "header_len_past_eof.npy"), b"\x93NUMPY\x01\x00\xff\xff{'descr': '<f4'")
    write(os.path.join(c, "v2_header_4gb.npy"), b"\x93NUMPY\x02\x00\xff\xff\xff\xff{'descr': '<f4'")
    write(os.path.join(c, "object_dtype.npy"), npy("(2,)", b"\0" * 16, descr="|O"))
    write(os.path.join(c, "bad_descr.npy"), npy("(2,)", b"\0" * 16, descr="<f3"))
    write(os.path.join(c, "header_garbage.npy"), npy("(2,", b"\0" * 16).replace(b"(2,", b"[[[", 1))
    write(os.path.join(c, "deep_header.npy"),
          b"\x93NUMPY\x01\x00" + struct.pack("<H", 8000) + ("{'shape': " + "(" * 3000 + ")" * 3000).ljust(7999).encode() + b"\n")
    os.mkfifo(os.path.join(c, "fifo.npy"))


@setup
def pt_tensor_cases(c):
    src = os.path.join(NPU0, "dump_tensor_data", PT)
    data = open(src, "rb").read()
    write(os.path.join(c, "truncated.pt"), data[: len(data) * 2 // 3])
    pt_local_header_other_name(os.path.join(c, "x"))
    shutil.move(os.path.join(c, "x", "n", "dump_tensor_data", PT), os.path.join(c, "other_name.pt"))
    shutil.rmtree(os.path.join(c, "x"))


# --- rank directories, output placement --------------------------------------------------------
@setup
def rank_too_big(c):
    for side, src in (("n", NPU0), ("g", BENCH0)):
        os.makedirs(os.path.join(c, side, "rank2147483648"))
        shutil.copy(os.path.join(src, "dump.json"), os.path.join(c, side, "rank2147483648", "dump.json"))


@setup
def rank_huge_digits(c):
    for side, src in (("n", NPU0), ("g", BENCH0)):
        d = os.path.join(c, side, "rank" + "9" * 40)
        os.makedirs(d)
        shutil.copy(os.path.join(src, "dump.json"), os.path.join(d, "dump.json"))


@setup
def pristine(c):
    rank0(c)


# --- merge ----------------------------------------------------------------------------------------
def compare_results(c):
    subprocess.run([os.path.join(BIN, "msprobe-compare"), "-q", "--csv", "-tp", os.path.join(SAMPLES, "npu_t", "step0"),
                    "-gp", os.path.join(SAMPLES, "bench_t", "step0"), "-o", os.path.join(c, "m")], check=True, stdout=subprocess.DEVNULL)
    write(os.path.join(c, "merge.yaml"), "api:\n- Functional.linear\n- Distributed.all_reduce\n")
    return os.path.join(c, "m")


@setup
def merge_csv_invalid_utf8(c):
    m = compare_results(c)
    rank1 = [f for f in os.listdir(m) if f.startswith("compare_result_rank1_")][0]
    data = open(os.path.join(m, rank1), "rb").read()
    write(os.path.join(m, "compare_result_rank2_20260101000000.csv"), data + b"Functional.linear\xff.0.forward.input.0,x\n")


@setup
def merge_output_is_input(c):
    compare_results(c)


@setup
def merge_csv_malformed(c):
    m = compare_results(c)
    write(os.path.join(m, "compare_result_rank2_20260101000000.csv"), 'NPU Name,Bench Name\n"unterminated,\n')
    write(os.path.join(m, "compare_result_rank3_20260101000000.csv"), "")


@setup
def merge_xlsx_zip_bomb_names(c):
    m = compare_results(c)
    # a zip whose central directory claims a huge member
    write(os.path.join(m, "compare_result_rank2_20260101000000.xlsx"), b"PK\x05\x06" + b"\xff" * 18)


@setup
def merge_yaml_malformed(c):
    compare_results(c)
    write(os.path.join(c, "merge.yaml"), "api: [Functional.linear\n  - : :\n")


@setup
def merge_yaml_alias_bomb(c):
    compare_results(c)
    lines = ['a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    for i in range(1, 10):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i-1}"] * 10) + "]")
    lines.append("api: *a9")
    write(os.path.join(c, "merge.yaml"), "\n".join(lines) + "\n")


@setup
def merge_yaml_invalid_utf8(c):
    compare_results(c)
    write(os.path.join(c, "merge.yaml"), b"api:\n- Functional.linear\xff\n")


# --- YAML -dm, compare.json -i ------------------------------------------------------------------
@setup
def yaml_cases(c):
    write(os.path.join(c, "unterminated.yaml"), "Functional.relu.7.forward.input.0: [Functional.relu\n  - :\n")
    write(os.path.join(c, "list.yaml"), "- a\n- b\n")
    write(os.path.join(c, "nested.yaml"), "a: {b: {c: 1}}\n")
    write(os.path.join(c, "deep.yaml"), "[" * 100000 + "]" * 100000 + "\n")
    write(os.path.join(c, "invalid_utf8.yaml"), b"Functional.relu.7.forward.input.0: Functional.relu\xff.0\n")
    write(os.path.join(c, "tab.yaml"), "a:\n\t- b\n")
    lines = ['a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    for i in range(1, 10):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i-1}"] * 10) + "]")
    write(os.path.join(c, "alias_bomb.yaml"), "\n".join(lines) + "\n")
    os.mkfifo(os.path.join(c, "fifo.yaml"))


@setup
def compare_json_cases(c):
    n, g = os.path.join(WORK, "shared", "npu", "dump.json"), os.path.join(WORK, "shared", "bench", "dump.json")
    write(os.path.join(c, "array.json"), json.dumps([n, g]))
    write(os.path.join(c, "number.json"), "7")
    write(os.path.join(c, "deep.json"), "[" * 100000 + "]" * 100000)
    write(os.path.join(c, "truncated.json"), '{"npu_path": "%s", "bench_pa' % n)
    write(os.path.join(c, "dup_key.json"), json.dumps({"npu_path": "/nonexistent", "bench_path": g})[:-1] + ', "npu_path": "%s"}' % n)
    write(os.path.join(c, "nul_tail.json"), '{"npu_path": "%s\\u0000", "bench_path": "%s"}' % (n, g))
    write(os.path.join(c, "nul_path.json"), '{"npu_path": "%s\\u0000x", "bench_path": "%s"}' % (n, g))
    write(os.path.join(c, "stack_missing.json"), json.dumps({"npu_path": n, "bench_path": g, "stack_path": "/nonexistent/stack.json"}))
    os.mkfifo(os.path.join(c, "fifo.json"))


# --- kernel dumps: .bin, mapping.csv, statistic.csv ------------------------------------------------
@setup
def bin_cases(c):
    data = open(os.path.join(BINS, "cases", ADD_BIN), "rb").read()
    write(os.path.join(c, "Add.huge_header.1.2.1735011096403740"), struct.pack("<Q", 2**64 - 1) + data[8:])
    write(os.path.join(c, "Add.header_2_63.1.2.1735011096403740"), struct.pack("<Q", 2**63) + data[8:])
    write(os.path.join(c, "Add.header_zero.1.2.1735011096403740"), struct.pack("<Q", 0) + data[8:])
    write(os.path.join(c, "Add.seven_bytes.1.2.1735011096403740"), data[:7])
    write(os.path.join(c, "Add.data_cut.1.2.1735011096403740"), data[:-3])
    os.mkfifo(os.path.join(c, "Add.fifo.1.2.1735011096403740"))


def kernel_tree(c, name):
    copytree(os.path.join(KERNEL, name), os.path.join(c, name))
    return os.path.join(c, name)


@setup
def mapping_csv_malformed(c):
    d = os.path.join(kernel_tree(c, "npu"), "rank_0", "Net", "0", "0")
    write(os.path.join(d, "mapping.csv"), "12345678901234567890123456789012.npy\nx,y,z\n")


@setup
def mapping_csv_invalid_utf8(c):
    # the original name of a file that exists: the bad bytes would reach statistic.csv / the compare
    d = os.path.join(kernel_tree(c, "npu"), "rank_0", "Net", "0", "0")
    edit(os.path.join(d, "mapping.csv"), "MatMul.Default_network", b"MatMul.Default_net\xffwork")


@setup
def mapping_csv_traversal(c):
    d = os.path.join(kernel_tree(c, "npu"), "rank_0", "Net", "0", "0")
    with open(os.path.join(d, "mapping.csv"), "a") as f:
        f.write("../../../../../../etc/passwd,Add.op.0.0.1.output.0.ND.FLOAT.npy\n")


@setup
def statistic_csv_malformed(c):
    kernel_tree(c, "stat_bench")
    d = os.path.join(kernel_tree(c, "stat_npu"), "rank_0", "Net", "0", "0")
    p = os.path.join(d, "statistic.csv")
    lines = open(p).read().splitlines()
    write(p, "\n".join(lines[:2] + ['Mul,Default_Mul-op1,0,0,200,output,0,16,float32,"(4', "Neg,only,three"]) + "\n")


@setup
def statistic_csv_no_key_columns(c):
    kernel_tree(c, "stat_bench")
    d = os.path.join(kernel_tree(c, "stat_npu"), "rank_0", "Net", "0", "0")
    write(os.path.join(d, "statistic.csv"), "foo,bar\n1,2\n")


@setup
def statistic_csv_invalid_utf8(c):
    kernel_tree(c, "stat_bench")
    d = os.path.join(kernel_tree(c, "stat_npu"), "rank_0", "Net", "0", "0")
    with open(os.path.join(d, "statistic.csv"), "ab") as f:
        f.write(b'Add,Default_Add\xff-op9,0,0,900,input,0,48,float32,"(3,4)",2.5,-1.5,0.25,12,4.75,\n')


@setup
def statistic_csv_absurd_shape(c):
    kernel_tree(c, "stat_bench")
    d = os.path.join(kernel_tree(c, "stat_npu"), "rank_0", "Net", "0", "0")
    p = os.path.join(d, "statistic.csv")
    edit(p, '"(3,4)"', '"(4611686018427387904,4611686018427387904)"')


@setup
def kernel_npy_truncated(c):
    d = os.path.join(kernel_tree(c, "npu"), "rank_0", "Net", "0", "0")
    p = os.path.join(d, "Add.Default_Add-op0.0.0.100.input.0.DefaultFormat.float32.npy")
    data = open(p, "rb").read()
    open(p, "wb").write(data[:-5])
    kernel_tree(c, "bench")


def main():
    wanted = sys.argv[4:]
    shared = os.path.join(WORK, "shared")
    copytree(NPU0, os.path.join(shared, "npu"))
    copytree(BENCH0, os.path.join(shared, "bench"))
    copytree(os.path.join(SAMPLES, "bench_t", "step0"), os.path.join(shared, "bench_step"))
    copytree(os.path.join(KERNEL, "bench"), os.path.join(shared, "kernel_bench"))
    copytree(os.path.join(KERNEL, "npu"), os.path.join(shared, "kernel_npu"))
    for name in wanted or SETUPS:
        c = os.path.join(WORK, "cases", name)
        os.makedirs(c)
        SETUPS[name](c)


if __name__ == "__main__":
    main()
