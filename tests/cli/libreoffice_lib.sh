# Shared by the tests that open our workbooks in LibreOffice (libreoffice_*_test.sh), sourced after
# lib.sh: skips when LibreOffice is absent, makes each kind of workbook from the bundled samples, and
# converts with LibreOffice headless. LibreOffice is a client-side check installed by
# scripts/client_deps.sh in CI, not by scripts/deps.sh, so a plain `scripts/test.sh` skips these tests.
soffice=$(command -v soffice || command -v libreoffice) || { echo "skipped: LibreOffice not installed"; exit 77; }
command -v python3 >/dev/null || { echo "skipped: python3 not installed"; exit 77; }
cmp=$MSPROBE_BIN/msprobe-compare
source "$(dirname "${BASH_SOURCE[0]}")/sample_dumps_lib.sh"

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
