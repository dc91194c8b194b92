#!/usr/bin/env bash
# A smoke figure for the aarch64 build (scripts/test_arm64.sh made it) under qemu-user: msprobe-dump
# stats of a float32 .npy and the kernel-dump compare (NPY mode) of two such tensors, in MB/s of one
# side's tensor data. Emulated, so it says the programs work at size, not how fast aarch64 is.
# Usage: scripts/bench_arm64_smoke.sh [BUILD_DIR (default build-arm64)] [SIZE_MIB (default 256)]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-arm64}
mib=${2:-256}
source "$root/scripts/arm64_env.sh" "$build-sysroot"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Two kernel dump trees holding one float32 Add output each (docs/kernel_dump.md names), seeds apart.
name=Add.Default_Add-op0.0.0.100.output.0.DefaultFormat.float32.npy
for side in npu:1 bench:2; do
  dir=$work/${side%:*}/rank_0/Net/0/0
  mkdir -p "$dir"
  python3 - "$dir/$name" "$mib" "${side#*:}" <<'PY'
import random, struct, sys
path, mib, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
n = mib * 1024 * 1024 // 4
header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % n
header += " " * (63 - (10 + len(header)) % 64) + "\n"
random.seed(seed)
block = struct.pack("<262144f", *(random.gauss(0, 1) for _ in range(262144)))  # 1 MiB, repeated
with open(path, "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
    for _ in range(mib):
        f.write(block)
PY
done

rate() {  # LABEL CMD...: runs CMD under qemu once, prints MB/s of one tensor
  local label=$1; shift
  local t0 t1
  t0=$(date +%s.%N)
  qemu-aarch64-static "$@" >/dev/null
  t1=$(date +%s.%N)
  awk -v l="$label" -v m="$mib" -v t0="$t0" -v t1="$t1" \
    'BEGIN { printf "qemu-aarch64 smoke: %s: %d MiB in %.1f s, %.0f MB/s\n", l, m, t1 - t0, m * 1.048576 / (t1 - t0) }'
}
cat "$work"/npu/rank_0/Net/0/0/"$name" "$work"/bench/rank_0/Net/0/0/"$name" >/dev/null  # page cache
rate "msprobe-dump stats" "$build/apps/msprobe-dump" stats -q "$work/npu/rank_0/Net/0/0/$name"
rate "msprobe-compare (kernel dump, tensor pair)" "$build/apps/msprobe-compare" -q \
  -tp "$work/npu" -gp "$work/bench" --rank 0 --csv -o "$work/out"
