#!/usr/bin/env bash
# Makes expected/ from databases written by msprobe's own data2db (msprobe 8ff00da3, Python, run with
# PYTHONHASHSEED=0 on the dumps named in README.md), laid out as MSPROBE_DBS/<case>_micro_<true|false>/
# <name>.trend.db: each becomes expected/<case>_micro_<m>.canon (trend_canon.py), or .digest when the
# text would exceed 20 KB; and the sqlite3 command's view of the stored schema, expected/schema_*.txt.
# Usage: tests/data/trend/make_expected.sh MSPROBE_DBS
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=${1:?usage: make_expected.sh MSPROBE_DBS}
cases=(g_multi g_multi_mapping g_l0 g_edge g_flush_exact g_flush_skip g_megatron g_nodata g_noconstruct
       monitor_g samples_npu_t samples_bench_t r_l0_stat r_mix_tensor gpu_dump st_mix md5_l1 dist2_npu_stat
       dist2da_golden)
mkdir -p "$here/expected"
for c in "${cases[@]}"; do
  for m in true false; do
    db=$(ls "$src/${c}_micro_$m"/*.trend.db 2>/dev/null | head -1) || true
    [ -n "$db" ] || continue
    case $(basename "$db") in  # msprobe leaves a partial database where it crashes: nothing to expect
      dump_data.trend.db) sqlite3 "$db" "SELECT 1 FROM global_stats" >/dev/null 2>&1 || continue ;;
    esac
    flags=()
    [ "$c" = monitor_g ] && flags=(--monitor-sets)
    out=$here/expected/${c}_micro_$m
    rm -f "$out.canon" "$out.digest"
    python3 "$here/trend_canon.py" "$db" "${flags[@]}" > "$out.canon"
    if [ "$(wc -c < "$out.canon")" -gt 20000 ]; then
      rm "$out.canon"
      python3 "$here/trend_canon.py" "$db" "${flags[@]}" --digest > "$out.digest"
    fi
  done
done
schema="SELECT type, name, tbl_name, sql FROM sqlite_master"
sqlite3 "$src/g_multi_micro_true/dump_data.trend.db" "$schema" > "$here/expected/schema_dump.txt"
# global_stats of a monitor database has its metric columns in msprobe's listing order
sqlite3 "$src/monitor_g_micro_true/monitor_data.trend.db" "$schema WHERE name != 'global_stats'" \
  > "$here/expected/schema_monitor.txt"
