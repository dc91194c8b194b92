#!/usr/bin/env bash
# Benchmark of msprobe-compare across MPI processes (docs/distributed.md §8) on one host: 8 ranks x
# MB per side in tensor mode (bench/rank_dumps_gen), the 8-rank -da data (bench/da_bench), and two
# sets whose pairs are larger than a process's share: one statistics pair and -da over 2 ranks (the
# -da data's ranks 4 and 5). Each compared alone, under mpirun -np 1 and -np 2: the median wall time
# of 3 warm runs, the peak RSS of the largest process, and (traced once with strace) the bytes of the
# dump files each process opened.
# --bind-to none: OpenMPI would bind each of two processes to one core (docs/distributed.md §1).
# Usage: scripts/bench_mpi.sh [DIR (default /tmp/msprobe_bench/mpi)] [MB_PER_RANK (default 200)]
# Environment: SETS (default "tensor da stats_pair da_2ranks"), NPS (the -np runs, default "1 2"), RUNS
# (default 3), COMPARE (a msprobe-compare to measure instead of building this tree's, e.g. an older one).
set -euo pipefail
shopt -s inherit_errexit  # a failed compare inside $(…) stops the benchmark
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build-mpi}
dir=${1:-/tmp/msprobe_bench/mpi}
mb=${2:-200}
sets=${SETS:-tensor da stats_pair da_2ranks}
nps=${NPS:-1 2}
runs=${RUNS:-3}
if [ -z "${COMPARE:-}" ] || [ ! -f "$dir/da/bench/step0/rank7/dump.json" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMSPROBE_MPI=ON >/dev/null
  cmake --build "$build" -j"$(nproc)" --target msprobe-compare rank_dumps_gen da_bench >/dev/null
fi
command -v strace >/dev/null || "$root/scripts/apt_install.sh" strace >/dev/null
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
compare=${COMPARE:-$build/apps/msprobe-compare}
case " $sets " in *" tensor "*) "$build/bench/rank_dumps_gen" "$dir/tensor" 8 "$mb" ;; esac
[ -f "$dir/da/bench/step0/rank7/dump.json" ] || "$build/bench/da_bench" "$dir/da" "$mb" >/dev/null

# median LIST...: the median of the numbers.
median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }
# one LAUNCH CASE: median wall seconds of $runs runs, median CPU seconds (user + system of every
# process) and the largest process's peak RSS (MB).
one() {
  local launch=$1 case=$2 walls=() cpus=() rss=0
  for _ in $(seq "$runs"); do
    rm -rf "$dir/out"
    local start end
    start=$(date +%s.%N)
    /usr/bin/time -f '%M %U %S' -o "$dir/rss" $launch "$compare" -q $case -o "$dir/out" >/dev/null
    end=$(date +%s.%N)
    walls+=("$(awk "BEGIN {printf \"%.2f\", $end - $start}")")
    read -r kb user sys <"$dir/rss"
    cpus+=("$(awk "BEGIN {printf \"%.2f\", $user + $sys}")")
    rss=$(( kb > rss ? kb : rss ))
  done
  printf '%s %s %d' "$(median "${walls[@]}")" "$(median "${cpus[@]}")" $((rss / 1024))
}

# opened LAUNCH CASE: per process, the bytes of the distinct files under $dir it opened.
opened() {
  local launch=$1 case=$2
  rm -rf "$dir/out" "$dir"/trace.*
  $launch sh -c "strace -f -e trace=openat -o '$dir/trace.'\${OMPI_COMM_WORLD_RANK:-0} '$compare' -q $case -o '$dir/out'" \
    >/dev/null
  for t in "$dir"/trace.*; do
    awk -v dir="$dir/" '!/ENOENT/ && match($0, /"[^"]*"/) {
      f = substr($0, RSTART + 1, RLENGTH - 2)
      if (index(f, dir) == 1 && index(f, dir "out/") != 1) print f
    }' "$t" | sort -u | while read -r f; do [ -f "$f" ] && stat -c %s "$f" || true; done |
      awk '{s += $1} END {printf "%.0f MB ", s / 1e6}'
  done
}

# Two ranks of the -da data (4 and 5, hard-linked), for pairs larger than a process's share.
for side in npu bench; do
  [ -d "$dir/da2/$side/step0/rank1" ] && continue
  mkdir -p "$dir/da2/$side/step0"
  cp -al "$dir/da/$side/step0/rank4" "$dir/da2/$side/step0/rank0"
  cp -al "$dir/da/$side/step0/rank5" "$dir/da2/$side/step0/rank1"
done

tensor="-tp $dir/tensor/npu/step0 -gp $dir/tensor/bench/step0"
da="-tp $dir/da/npu/step0 -gp $dir/da/bench/step0 -da"
stats_pair="-tp $dir/da2/npu/step0/rank1/dump.json -gp $dir/da2/bench/step0/rank1/dump.json --csv"
da_2ranks="-tp $dir/da2/npu/step0 -gp $dir/da2/bench/step0 -da"
echo "8 ranks x $mb MB per side, $(nproc) cores; median of $runs warm runs; peak RSS of the largest process"
echo "| data | run | wall s | vs alone | CPU s | peak RSS MB | MB of dump files each process opened |"
echo "|---|---|---|---|---|---|---|"
for name in $sets; do
  case=${!name}
  "$compare" -q $case -o "$dir/out" >/dev/null  # warms the page cache
  timed=$(one "" "$case")
  files=$(opened "" "$case")
  read -r alone_wall alone_cpu alone_rss <<<"$timed"
  echo "| $name | alone | $alone_wall | 1.00 | $alone_cpu | $alone_rss | $files|"
  for n in $nps; do
    timed=$(one "mpirun --bind-to none -np $n" "$case")
    files=$(opened "mpirun --bind-to none -np $n" "$case")
    read -r wall cpu rss <<<"$timed"
    echo "| $name | mpirun -np $n | $wall | $(awk "BEGIN {printf \"%.2f\", $wall / $alone_wall}") | $cpu | $rss | $files|"
  done
done
rm -rf "$dir/out" "$dir"/trace.* "$dir/rss"
