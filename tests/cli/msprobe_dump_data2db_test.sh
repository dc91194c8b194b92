#!/usr/bin/env bash
# msprobe-dump data2db (and msprobe data2db) end to end (docs/trend.md): each database equals the one
# msprobe's own data2db wrote from the same dumps (tests/data/trend/expected/, rendered by
# trend_canon.py with Python's sqlite3: tags by name, everything else with its ids), micro steps on
# and off: hand-made dumps from tests/data/trend/gen_trend_dumps.py, real msprobe dumps (L0
# statistics, mix tensor) in tests/data/trend/real/, the bundled samples, and ../shared's when there.
# The sqlite3 command reads back the stored schema, the clamped infinities and NaN as NULL. Then
# errors, replacement, the umbrella, and `msprobe-dump trend` pages.
source "$(dirname "$0")/lib.sh"
dump=$MSPROBE_BIN/msprobe-dump
data=$MSPROBE_ROOT/tests/data/trend
command -v sqlite3 >/dev/null || fail "no sqlite3 command (scripts/deps.sh installs it)"
python3 "$data/gen_trend_dumps.py" "$TMP/dumps" || fail "gen_trend_dumps.py"

# same_as_msprobe NAME MICRO DB: our DB against expected/NAME_micro_MICRO.{canon,digest}.
same_as_msprobe() {
  local expected=$data/expected/$1_micro_$2 flags=()
  [[ $1 == monitor_* ]] && flags=(--monitor-sets)
  checks=$((checks + 1))
  if [ -f "$expected.canon" ]; then
    python3 "$data/trend_canon.py" "$3" "${flags[@]}" > "$TMP/got.canon" || fail "trend_canon.py $3"
    diff "$expected.canon" "$TMP/got.canon" > "$TMP/diff" || fail "$1 micro_step $2 differs from msprobe: $(head -20 "$TMP/diff")"
  else
    python3 "$data/trend_canon.py" "$3" "${flags[@]}" --digest > "$TMP/got.digest" || fail "trend_canon.py $3"
    diff "$expected.digest" "$TMP/got.digest" > "$TMP/diff" || fail "$1 micro_step $2 differs from msprobe: $(cat "$TMP/diff")"
  fi
}

# case NAME DATA [ARGS...]: data2db with --micro_step true and false, each database against msprobe's.
case_both() {
  local name=$1 input=$2 m db
  shift 2
  for m in true false; do
    run "$dump" data2db -q --db "$TMP/db/${name}_$m" --data "$input" --micro_step "$m" "$@"
    expect_code 0 "$name micro_step $m"
    db=$(ls "$TMP/db/${name}_$m"/*.trend.db | head -1)
    same_as_msprobe "$name" "$m" "$db"
  done
}

for name in g_multi g_l0 g_edge g_flush_exact g_flush_skip g_megatron; do
  case_both "$name" "$TMP/dumps/$name" --format dump
done
case_both g_multi_mapping "$TMP/dumps/g_multi" --format dump --mapping "$TMP/dumps/mapping_g_multi.json"
case_both monitor_g "$TMP/dumps/monitor_g"
case_both r_l0_stat "$data/real/r_l0_stat"
case_both r_mix_tensor "$data/real/r_mix_tensor"
case_both samples_npu_t "$MSPROBE_ROOT/samples/dist2/npu_t"
case_both samples_bench_t "$MSPROBE_ROOT/samples/dist2/bench_t"
if have_shared; then
  case_both gpu_dump "$SHARED_DATA/msprobe_examples/examples/quick_start/gpu_dump"
  case_both st_mix "$SHARED_DATA/msprobe_samples/single_proc/st_mix"
  case_both md5_l1 "$SHARED_DATA/msprobe_samples/single_proc/md5_l1"
  case_both dist2_npu_stat "$SHARED_DATA/msprobe_samples/dist2/npu_stat"
  case_both dist2da_golden "$SHARED_DATA/msprobe_samples/dist2_da/golden"
else
  echo "../shared absent: its dumps skipped"
fi

# Where msprobe crashes with micro steps on, only its micro_step false databases are to compare; ours
# go on past a dump.json without "data" (a warning) and refuse a missing construct.json.
run "$dump" data2db -q --db "$TMP/db/g_nodata_false" --data "$TMP/dumps/g_nodata" --micro_step false
expect_code 0
same_as_msprobe g_nodata false "$TMP/db/g_nodata_false/dump_data.trend.db"
run "$dump" data2db -q --db "$TMP/db/g_nodata_true" --data "$TMP/dumps/g_nodata"
expect_code 0
expect_err "warning: $TMP/dumps/g_nodata/step0/rank1/dump.json: no \"data\" object"
run "$dump" data2db -q --db "$TMP/db/g_noconstruct_false" --data "$TMP/dumps/g_noconstruct" --micro_step False
expect_code 0
same_as_msprobe g_noconstruct false "$TMP/db/g_noconstruct_false/dump_data.trend.db"
run "$dump" data2db --db "$TMP/db/g_noconstruct_true" --data "$TMP/dumps/g_noconstruct"
expect_code 3
expect_one_error_line msprobe-dump
expect_err "g_noconstruct/step0/rank0/construct.json: no such file"
checks=$((checks + 1))
[ -z "$(ls -A "$TMP/db/g_noconstruct_true")" ] || fail "a failed import left files: $(ls -A "$TMP/db/g_noconstruct_true")"

# The sqlite3 command: the schema text msprobe stores, its typo'd foreign key included; the defaults.
db=$TMP/db/g_multi_true/dump_data.trend.db
schema="SELECT type, name, tbl_name, sql FROM sqlite_master"
sqlite3 "$db" "$schema" > "$TMP/schema.txt"
diff "$data/expected/schema_dump.txt" "$TMP/schema.txt" > "$TMP/diff" || fail "schema: $(cat "$TMP/diff")"
checks=$((checks + 1))
sqlite3 "$TMP/db/monitor_g_true/monitor_data.trend.db" "$schema WHERE name != 'global_stats'" > "$TMP/schema.txt"
diff "$data/expected/schema_monitor.txt" "$TMP/schema.txt" > "$TMP/diff" || fail "monitor schema: $(cat "$TMP/diff")"
checks=$((checks + 1))
[ "$(sqlite3 "$db" 'PRAGMA page_size; PRAGMA encoding; PRAGMA journal_mode; PRAGMA integrity_check' | tr '\n' ' ')" \
  = "4096 UTF-8 delete ok " ] || fail "pragmas: $(sqlite3 "$db" 'PRAGMA page_size; PRAGMA encoding; PRAGMA journal_mode')"
checks=$((checks + 1))
grep -q "REFERENCES monitoring_target(target_id)" "$TMP/schema.txt" || fail "msprobe's foreign key text"
checks=$((checks + 1))
# g_edge's inf/-inf/NaN/None tensor, its 2e9/-3e9 tensor, and strings read as Python's float().
edge=$TMP/db/g_edge_false/dump_data.trend.db
q="SELECT quote(norm), quote(max), quote(min), quote(mean) FROM trend_data JOIN monitoring_targets USING (target_id)
   WHERE rank = 0 AND step = 0 AND target_name ="
[ "$(sqlite3 "$edge" "$q 'Functional.linear.input.6'")" = "NULL|1000000001.0|-1000000001.0|NULL" ] \
  || fail "±inf, NaN: $(sqlite3 "$edge" "$q 'Functional.linear.input.6'")"
[ "$(sqlite3 "$edge" "$q 'Functional.linear.input.5'")" = "1000000000.0|1000000000.0|-1000000000.0|1000000000.0" ] \
  || fail "clamped: $(sqlite3 "$edge" "$q 'Functional.linear.input.5'")"
[ "$(sqlite3 "$edge" "$q 'Functional.linear.input.7'")" = "NULL|1000000001.0|-1000000001.0|1.5" ] \
  || fail "strings: $(sqlite3 "$edge" "$q 'Functional.linear.input.7'")"
checks=$((checks + 3))
# Ids as msprobe's INSERT OR IGNORE spends them: gaps, and a sequence past the last id.
[ "$(sqlite3 "$db" "SELECT count(*), max(target_id), (SELECT seq FROM sqlite_sequence WHERE name = 'monitoring_targets')
                    FROM monitoring_targets")" = "56|86|88" ] || fail "target ids: $(sqlite3 "$db" 'SELECT count(*), max(target_id) FROM monitoring_targets')"
checks=$((checks + 1))

# auto: a dump root gives the dump database only, monitor output the monitor database only.
run "$dump" data2db --db "$TMP/auto" --data "$TMP/dumps/g_multi"
expect_code 0
expect_out "$TMP/auto/dump_data.trend.db"
expect_err "16 file(s), 2784 row(s), 56 target(s), 30 tag(s); ranks 0-3, steps 0-11"
checks=$((checks + 1))
[ "$(ls "$TMP/auto")" = "dump_data.trend.db" ] || fail "auto wrote: $(ls "$TMP/auto")"
same_as_msprobe g_multi true "$TMP/auto/dump_data.trend.db"
# A second run replaces the database whole, leaving no temporary file.
run "$dump" data2db -q --db "$TMP/auto" --data "$TMP/dumps/g_multi" --micro_step false
expect_code 0
same_as_msprobe g_multi false "$TMP/auto/dump_data.trend.db"
checks=$((checks + 1))
[ "$(ls -A "$TMP/auto")" = "dump_data.trend.db" ] || fail "left behind: $(ls -A "$TMP/auto")"

# The umbrella: msprobe's command line, the same database.
run "$MSPROBE_BIN/msprobe" data2db --db "$TMP/umb" --data "$TMP/dumps/g_l0" --format dump --micro_step true
expect_code 0
same_as_msprobe g_l0 true "$TMP/umb/dump_data.trend.db"
run "$MSPROBE_BIN/msprobe" data2db --help
expect_code 0
expect_out "--micro_step"

# Usage and input errors: one line, exit 2 or 3; nothing under the database's name.
run "$dump" data2db --db "$TMP/e" --data "$TMP/dumps/g_l0" --micro_step TRUE
expect_code 2
expect_err "TRUE"
run "$dump" data2db --db "$TMP/e" --data "$TMP/dumps/g_l0" --process_num 129
expect_code 2
run "$dump" data2db --db "$TMP/e" --data "$TMP/dumps/g_l0" --format csv
expect_code 2
run "$dump" data2db --db "$TMP/e" --data "$TMP/nonexistent"
expect_code 3
expect_one_error_line msprobe-dump
expect_err "nonexistent: no such directory"
# the database never goes into the dump it reads: refused before anything is written
run "$dump" data2db --db "$TMP/dumps/g_l0/x.db" --data "$TMP/dumps/g_l0"
expect_code 3
expect_err_line "msprobe-dump: error: $TMP/dumps/g_l0/x.db: the output would land inside the input $TMP/dumps/g_l0"
checks=$((checks + 1))
[ ! -e "$TMP/dumps/g_l0/x.db" ] || fail "data2db wrote inside its input"
run "$dump" data2db --db "$TMP/e" --data "$TMP/dumps/g_empty" --format dump
expect_code 3
expect_one_error_line msprobe-dump
expect_err "no step<N> directory"
run "$dump" data2db --db "$TMP/e" --data "$TMP/dumps/g_empty"
expect_code 3
expect_err "neither a dump root"
run "$dump" data2db --db "$TMP/e" --data "$TMP/dumps/g_nosteprank" --format dump
expect_code 3
expect_err "warning: $TMP/dumps/g_nosteprank/step0: no rank<N> or proc<N> directory"
run "$dump" data2db --db "$TMP/e" --data "$TMP/dumps/monitor_g" --format dump
expect_code 3
run "$dump" data2db --db "$TMP/e" --data "$TMP/dumps/g_l0" --mapping "$TMP/nonexistent.json"
expect_code 3
expect_one_error_line msprobe-dump
echo '{"a": 1}' > "$TMP/bad_mapping.json"
run "$dump" data2db --db "$TMP/e" --data "$TMP/dumps/g_l0" --mapping "$TMP/bad_mapping.json"
expect_code 3
expect_err "'a': the new name must be text"
cp -r "$TMP/dumps/g_l0" "$TMP/broken"
printf '{"data": {"Module.x.forward.0": ' > "$TMP/broken/step1/rank0/dump.json"
run "$dump" data2db --db "$TMP/e" --data "$TMP/broken"
expect_code 3
expect_one_error_line msprobe-dump
expect_err "broken/step1/rank0/dump.json"
checks=$((checks + 1))
[ ! -e "$TMP/e/dump_data.trend.db" ] && [ -z "$(ls -A "$TMP/e")" ] || fail "a failed import left: $(ls -A "$TMP/e")"

# The trend page: beside the database, or -o; its data holds every row (Python reads it back).
run "$dump" trend "$TMP/db/g_multi_true"
expect_code 0
expect_out "$TMP/db/g_multi_true/dump_data.trend.html"
expect_err "2784 row(s) shown"
python3 - "$TMP/db/g_multi_true/dump_data.trend.html" "$TMP/db/g_multi_true/dump_data.trend.db" <<'EOF' || fail "page data"
import json, re, sqlite3, sys
page = open(sys.argv[1], encoding="utf-8").read()
assert "Content-Security-Policy" in page and "<script src" not in page and "http://" not in page.split("<script>")[0]
data = json.loads(re.search(r'<script id="report-data" type="application/json">(.*?)</script>', page, re.S).group(1))
con = sqlite3.connect(sys.argv[2])
rows = con.execute("SELECT rank, step, target_id, metric_id, norm, max, min, mean FROM trend_data").fetchall()
got = set()
ids, metrics = data["targets"]["id"], [m["id"] for m in data["metrics"]]
for i in range(len(data["rows"]["rank"])):
    r = data["rows"]
    got.add((r["rank"][i], r["step"][i], ids[r["target"][i]], metrics[r["metric"][i]]) + tuple(v[i] for v in r["values"]))
assert got == set(rows), (len(got), len(rows))
assert data["stats"] == ["norm", "max", "min", "mean"] and [m["name"] for m in data["metrics"]] == ["forward", "backward"]
assert len(data["tags"]["name"]) == con.execute("SELECT count(*) FROM monitoring_tags").fetchone()[0]
EOF
checks=$((checks + 1))
run "$dump" trend "$TMP/db/g_multi_true/dump_data.trend.db" -o "$TMP/page.html" --ranks 0,1 --first-step 2 --last-step 5
expect_code 0
expect_err "$(sqlite3 "$db" 'SELECT count(*) FROM trend_data WHERE rank IN (0, 1) AND step BETWEEN 2 AND 5') row(s) shown"
run "$dump" data2db --db "$TMP/html" --data "$TMP/dumps/monitor_g" --html
expect_code 0
expect_out "$TMP/html/monitor_data.trend.html"
run "$dump" trend "$TMP/db/g_multi_true" --max-rows 100
expect_code 3
expect_one_error_line msprobe-dump
expect_err "2784 rows to show, more than 100"
run "$dump" trend "$TMP/dumps/g_l0/step0/rank0/dump.json"
expect_code 3
expect_one_error_line msprobe-dump
run "$dump" trend "$TMP/dumps"
expect_code 3
expect_err "no *.trend.db"
finish
