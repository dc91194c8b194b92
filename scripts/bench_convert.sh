#!/usr/bin/env bash
# Benchmarks msprobe-convert on a generated tree of fp16 kernel dumps (half NC1HWC0, half FRACTAL_NZ;
# 64 MiB each, with channel/row padding), warm page cache: prints GB/s of input and peak RSS.
# Usage: scripts/bench_convert.sh [DATA_DIR (default /tmp/msprobe_convert_bench)] [FILES (default 16 = 1 GiB)]
# BUILD_DIR overrides the build tree (default build-bench). Needs protoc (fixture tooling) to make the headers.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build-bench}
data=${1:-/tmp/msprobe_convert_bench}
files=${2:-16}
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" --parallel "$(nproc)" --target msprobe-convert >/dev/null
proto=$root/tests/data/bin
header() {  # header TEXT → file with the u64 length and the encoded DumpData
  protoc --encode=toolkit.dumpdata.DumpData --proto_path="$proto" "$proto/dump_data.proto" <<<"$1" >"$data/.h"
  python3 -c "import struct,sys; sys.stdout.buffer.write(struct.pack('<Q', $(stat -c %s "$data/.h")))"
  cat "$data/.h"
}
mkdir -p "$data/in"
size=$((64 << 20))
for i in $(seq 0 $((files - 1))); do
  f="$data/in/Bench.Default_op$i.1.2.17350110964037$((10 + i))"
  [ -f "$f" ] && continue
  if ((i % 2 == 0)); then  # NC1HWC0 [8, 4, 256, 256, 16], host NCHW [8, 60, 256, 256]
    h='output { data_type: DT_FLOAT16 format: FORMAT_NC1HWC0 shape { dim: 8 dim: 4 dim: 256 dim: 256 dim: 16 }
       original_shape { dim: 8 dim: 60 dim: 256 dim: 256 } size: '$size' }'
  else  # FRACTAL_NZ [8, 128, 128, 16, 16], host ND [8, 2040, 2040]
    h='output { data_type: DT_FLOAT16 format: FORMAT_FRACTAL_NZ shape { dim: 8 dim: 128 dim: 128 dim: 16 dim: 16 }
       original_shape { dim: 8 dim: 2040 dim: 2040 } size: '$size' }'
  fi
  { header "version: \"2.0\" $h"; head -c "$size" /dev/urandom; } >"$f"
done
rm -f "$data/.h"
total=$(du -cb "$data"/in/* | tail -1 | cut -f1)
cat "$data"/in/* >/dev/null  # warm the page cache
for threads in 1 2; do
  rm -rf "$data/out"
  start=$(date +%s.%N)
  /usr/bin/time -f "%M" -o "$data/.rss" "$build/apps/msprobe-convert" -q -j "$threads" -d "$data/in" -o "$data/out"
  end=$(date +%s.%N)
  python3 -c "t=$end-$start; print(f'-j $threads: {$total/2**30:.2f} GiB in {t:.2f} s = {$total/t/1e9:.2f} GB/s of input, peak RSS {$(cat "$data/.rss")/1024:.0f} MB')"
done
rm -rf "$data/out" "$data/.rss"
