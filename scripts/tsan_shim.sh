#!/usr/bin/env bash
# Builds the capture shim, the fake runtime, the sample program and the shim's tests with clang
# ThreadSanitizer, then runs those tests (label `capture`). Any race report fails its test: TSan exits
# the program with 66, and the tests compare exit codes and stderr. Usage: scripts/tsan_shim.sh [BUILD_DIR]
# TSan excludes ASan, so this tree is apart from scripts/sanitize.sh's; only the shim's targets are built.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-shim-tsan}
flags="-fsanitize=thread -fno-omit-frame-pointer"
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMSPROBE_BENCH=OFF \
  -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread \
  -DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=thread >/dev/null
cmake --build "$build" --parallel "$(nproc)" --target msprobe_capture fake_ascendcl sample_train capture_shim_tests
# The symbolizer TSan starts would inherit LD_PRELOAD of the TSan-built shim, whose __tsan_* symbols
# only an instrumented executable provides: start it without.
symbolizer=$build/llvm-symbolizer-unpreloaded
real_symbolizer=$(command -v llvm-symbolizer-14 || command -v llvm-symbolizer)
printf '#!/bin/sh\nunset LD_PRELOAD\nexec %s "$@"\n' "$real_symbolizer" >"$symbolizer"
chmod +x "$symbolizer"
# halt_on_error: the first report ends the program, so no test can pass over a race. Thread leaks are
# not reported: sample_train exits from a worker thread when an op fails (the failing-op test), with or
# without the shim, and the shim's writer thread is detached by design.
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 report_thread_leaks=0"
TSAN_OPTIONS+=" external_symbolizer_path=$symbolizer"
(cd "$build" && ctest --output-on-failure --parallel "$(nproc)" -L capture)
echo "tsan (capture shim): clean"
