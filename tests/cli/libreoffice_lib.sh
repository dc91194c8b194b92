# Shared by the tests that open our workbooks in LibreOffice (libreoffice_*_test.sh), sourced after
# lib.sh: skips when LibreOffice is absent, makes each kind of workbook from the bundled samples, and
# converts with LibreOffice headless. LibreOffice is a client-side check installed by
# scripts/client_deps.sh in CI, not by scripts/deps.sh, so a plain `scripts/test.sh` skips these tests.
soffice=$(command -v soffice || command -v libreoffice) || { echo "skipped: LibreOffice not installed"; exit 77; }
command -v python3 >/dev/null || { echo "skipped: python3 not installed"; exit 77; }
cmp=$MSPROBE_BIN/msprobe-compare
samples=$MSPROBE_ROOT/samples/dist2

# lo_convert FILTER OUTDIR FILE: LibreOffice headless conversion. A private profile per test run: a
# LibreOffice already running on the user's profile would take the job over (or hold its lock); the
# timeout bounds a hung start.
lo_convert() {
  run timeout 300 "$soffice" -env:UserInstallation="file://$TMP/lo_profile" --headless \
    --convert-to "$1" --outdir "$2" "$3"
  expect_code 0 "soffice --convert-to $1 $3"
}

# sheet_names BOOK.xlsx: the workbook's sheet names in order, one a line, from xl/workbook.xml.
sheet_names() {
  python3 -c 'import re, sys, zipfile
print("\n".join(re.findall(r"<sheet\b[^>]*\bname=\"([^\"]*)\"", zipfile.ZipFile(sys.argv[1]).read("xl/workbook.xml").decode())))' "$1"
}

# statistics_dumps DIR: the tensor samples as statistics dumps (task "statistics", no tensor files) in
# DIR/npu and DIR/bench. NPU rank1's first Max is Infinity and its first Min NaN, so the workbooks
# also carry the texts msprobe writes for them.
statistics_dumps() {
  local side rank
  for side in npu bench; do
    for rank in rank0 rank1; do
      mkdir -p "$1/$side/$rank"
      cp "$samples/${side}_t/step0/$rank"/*.json "$1/$side/$rank/"
    done
  done
  chmod -R u+w "$1"
  sed -i 's/"task": "tensor"/"task": "statistics"/' "$1"/*/rank*/dump.json
  sed -i -e '0,/"Max": [^,]*/s//"Max": Infinity/' -e '0,/"Min": [^,]*/s//"Min": NaN/' "$1/npu/rank1/dump.json"
  grep -q '"Min": NaN' "$1/npu/rank1/dump.json" || fail "no NaN written into $1/npu/rank1/dump.json"
}

# md5_dumps DIR: statistics dumps whose tensors carry an md5 text instead of a data_name: the digits of
# the tensor's Max, so equal tensors get equal texts and changed ones differ (pass and error rows).
md5_dumps() {
  local f
  statistics_dumps "$1"
  for f in "$1"/*/rank*/dump.json; do
    awk '/"Max":/ { max = $2; gsub(/[^0-9]/, "", max) }
         /"data_name":/ { sub(/"data_name": "[^"]*"/, "\"md5\": \"" substr(max "00000000", 1, 8) "\"") }
         { print }' "$f" >"$f.new" && mv "$f.new" "$f"
  done
}

# diff_dumps DIR: statistics dumps where NPU rank0's first output (Tensor.__mul__.0.forward) has ten
# times its norm, so -da finds a first diff and marks it in the workbook.
diff_dumps() {
  statistics_dumps "$1"
  sed -i '0,/"Norm": 4.309046268463135/s//"Norm": 43.09046268463135/' "$1/npu/rank0/dump.json"
}

# compare_workbooks KIND OUTDIR: runs msprobe-compare on the samples for KIND (tensor, statistics, md5,
# da), writing compare_result_rank{0,1}_{ts}.xlsx and .csv into OUTDIR.
compare_workbooks() {
  local dumps=$TMP/dumps_$1
  case $1 in
    tensor) run "$cmp" -tp "$samples/npu_t/step0" -gp "$samples/bench_t/step0" -o "$2" -q ;;
    statistics | md5) "$1_dumps" "$dumps"; run "$cmp" -tp "$dumps/npu" -gp "$dumps/bench" -o "$2" -q ;;
    da) diff_dumps "$dumps"; run "$cmp" -tp "$dumps/npu" -gp "$dumps/bench" -o "$2" -q -da --csv --xlsx ;;
  esac
  expect_code 0 "compare $1"
  [ "$1" != da ] || ls "$2"/diff_analyze_*.json >/dev/null 2>&1 || fail "-da found no first diff: $(ls "$2")"
  [ "$(ls "$2"/compare_result_rank*.xlsx | wc -l)" -eq 2 ] || fail "compare $1 wrote $(ls "$2")"
}
