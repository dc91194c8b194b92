#!/usr/bin/env bash
# CI for aarch64 on an x86-64 host: cross-builds the whole tree (Release, no benchmarks) against an arm64
# sysroot (scripts/arm64_sysroot.sh, cmake/toolchain-aarch64.cmake), runs the unit, CLI and capture
# shim tests under qemu-user-static, compares every program's outputs with the x86 build's
# (scripts/same_outputs.sh), then checks the arm64 .deb (scripts/package_check_arm64.sh).
# Usage: scripts/test_arm64.sh [BUILD_DIR (default build-arm64)]; the sysroot goes to BUILD_DIR-sysroot.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-arm64}
sysroot=$build-sysroot

# Only ctest knows to put qemu in front of an aarch64 program; the build (help2man runs each program
# for its man page) and the tests start them from other programs too (the CLI scripts from bash, msprobe
# execs msprobe-compare, msprobe-dump run and the shim tests start sample_train), which takes a
# binfmt_misc entry for qemu. Without one on the host, the script runs again in its own user and mount
# namespace with a private binfmt_misc (Linux >= 6.7), changing nothing outside it.
binfmt=/proc/sys/fs/binfmt_misc
if [ -z "${MSPROBE_ARM64_NAMESPACE:-}" ]; then
  "$root/scripts/apt_install.sh" --no-install-recommends crossbuild-essential-arm64 qemu-user-static
  "$root/scripts/arm64_sysroot.sh" "$sysroot"
  if ! grep -qx enabled "$binfmt/qemu-aarch64" 2>/dev/null; then
    MSPROBE_ARM64_NAMESPACE=1 exec unshare --user --map-root-user --mount -- bash "$0" "$build"
  fi
else
  mount -t binfmt_misc binfmt_misc "$binfmt"
  # ELF64, little-endian, e_machine 183 (EM_AARCH64); F: qemu is opened now, found from any mount.
  printf '%s' ':qemu-aarch64:M::\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00:\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff:/usr/bin/qemu-aarch64-static:F' \
    >"$binfmt/register"
fi
source "$root/scripts/arm64_env.sh" "$sysroot"

launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache); fi
"$root/scripts/build.sh" "$build" -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchain-aarch64.cmake" \
  -DMSPROBE_ARM64_SYSROOT="$sysroot" -DMSPROBE_BENCH=OFF "${launcher[@]}"
cd "$build"
# `client` needs LibreOffice (an x86 program opening our workbooks: the x86 run covers it).
ctest --output-on-failure --parallel "$(nproc)" -LE client
# Results equal x86's, byte for byte: every program's outputs on benchmark-like data, the samples and
# the fixtures against those of the x86 build that scripts/test.sh made (CI runs it first).
if [ -x "$root/build/apps/msprobe-compare" ] && [ -d "$root/build/bench" ]; then
  "$root/scripts/same_outputs.sh" "$root/build/apps" "$build/apps" "$build/same_outputs"
else
  echo "test_arm64: no x86 build with benchmarks in build/ (scripts/test.sh): outputs not compared with x86's"
fi
"$root/scripts/package_check_arm64.sh" "$build"
