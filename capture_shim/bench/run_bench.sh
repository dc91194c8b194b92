#!/usr/bin/env bash
# Capture shim benchmarks (by hand): per-call hook cost with capture disabled, the sample program in
# stats mode, and tensor capture throughput to local disk. Usage: run_bench.sh BUILD_DIR [OUT_DIR]
set -euo pipefail
build=${1:?build dir}
out=${2:-$(mktemp -d)}
shim=$build/capture_shim/libmsprobe_capture.so
bench=$build/capture_shim/capture_bench
sample=$build/capture_shim/sample_train
export MSPROBE_CAPTURE_MIN_FREE_DISK=0

echo "== hook cost, 20M rejected calls"
"$bench" calls 20000000 | sed 's/^/no shim:          /'
LD_PRELOAD=$shim "$bench" calls 20000000 | sed 's/^/shim, disabled:    /'
MSPROBE_CAPTURE_ENABLE=1 MSPROBE_CAPTURE_DIR=$out/calls LD_PRELOAD=$shim "$bench" calls 20000000 | sed 's/^/shim, enabled:     /'

echo "== 100k small Adds: time in the issuing thread"
"$bench" small 100000 | sed 's/^/no shim:     /'
MSPROBE_CAPTURE_ENABLE=1 MSPROBE_CAPTURE_MODE=stats MSPROBE_CAPTURE_DIR=$out/small LD_PRELOAD=$shim "$bench" small 100000 | sed 's/^/stats mode:  /'
MSPROBE_CAPTURE_ENABLE=1 MSPROBE_CAPTURE_DIR=$out/small LD_PRELOAD=$shim "$bench" small 100000 | sed 's/^/tensor mode: /'

echo "== sample_train --steps 2000 (26000 ops on two streams)"
t() { local s=$(date +%s.%N); "$@" >/dev/null; echo "$(date +%s.%N) - $s" | bc; }
echo "no shim:      $(t "$sample" --steps 2000) s"
echo "stats mode:   $(MSPROBE_CAPTURE_ENABLE=1 MSPROBE_CAPTURE_MODE=stats MSPROBE_CAPTURE_DIR=$out/stats LD_PRELOAD=$shim t "$sample" --steps 2000) s"
echo "tensor mode:  $(MSPROBE_CAPTURE_ENABLE=1 MSPROBE_CAPTURE_DIR=$out/tensor LD_PRELOAD=$shim t "$sample" --steps 2000) s"

echo "== tensor capture throughput: Add over 256 MiB tensors (768 MiB written per op), and dd writing as much"
# Each run starts with no dirty pages left by the one before (sync) and removes what it wrote.
"$bench" big 256 8 | sed 's/^/no shim:               /'
for direct in auto off; do
  sync
  MSPROBE_CAPTURE_ENABLE=1 MSPROBE_CAPTURE_DIR=$out/big MSPROBE_CAPTURE_MEMORY=4G MSPROBE_CAPTURE_ON_FULL=block \
    MSPROBE_CAPTURE_DIRECT=$direct LD_PRELOAD=$shim "$bench" big 256 8 | sed "s/^/capture, DIRECT=$direct: /"
  du -sh "$out/big"
  rm -rf "$out/big"
done
sync
echo "dd bs=256M count=24:               $(dd if=/dev/zero of="$out/dd" bs=256M count=24 2>&1 | tail -1)"
rm -f "$out/dd"
sync
echo "dd oflag=direct bs=64M count=96:   $(dd if=/dev/zero of="$out/dd" oflag=direct bs=64M count=96 2>&1 | tail -1)"
rm -rf "$out"
