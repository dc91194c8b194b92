#!/usr/bin/env bash
# Replays the hostile-input corpus (tests/hostile/cases.tsv) against the built programs and checks
# the contract of each run:
#   - it ends in time (timeout 20: exit 124 is a hang) and by itself (exit >= 128 is a signal);
#   - the exit code is the one the table expects;
#   - exit 2, 3 or 4: exactly one stderr line, "<program>: error: ...", holding the expected text;
#     exit 0 or 1: the expected text somewhere in stdout or stderr;
#   - the case's inputs are untouched (names, types, sha256 of every regular file, before and after);
#   - a failed run (exit >= 2) leaves no file at all in its output directory (no final name, no
#     temporary); no run leaves a *.tmp.* file behind;
#   - a successful run's outputs are well-formed (json parses, csv is UTF-8, every xlsx/xml part parses);
#   - the table's optional output pattern matches a line of an output csv.
# A case marked with a known defect in the table is reported as KNOWN and does not fail the run; a
# known case that now passes is reported as FIXED (remove its mark).
#
# Usage: bash tests/hostile/run_corpus.sh [BIN_DIR] [CASE_ID...]     (BIN_DIR default: build/apps)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=$(cd "${1:-$root/build/apps}" && pwd) || { echo "no such directory: ${1:-}" >&2; exit 2; }
shift $(($# > 0 ? 1 : 0))
only=("$@")
for p in msprobe-compare msprobe-merge msprobe-convert msprobe-dump; do
  [ -x "$bin/$p" ] || { echo "$bin/$p: not built" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'chmod -R u+rwx "$work" 2>/dev/null; rm -rf "$work"' EXIT
python3 "$here/gen_corpus.py" "$root" "$bin" "$work" >"$work/gen.log" 2>&1 || { cat "$work/gen.log" >&2; exit 2; }
mkdir -p "$work/out" "$work/run"

# snapshot DIR...: every entry's name and type, and the sha256 of every regular file (symlinks are
# not followed, FIFOs not opened).
snapshot() {
  local d
  for d in "$@"; do
    (cd "$d" && find . -printf '%P %y %l\n' | LC_ALL=C sort && find . -type f -print0 | LC_ALL=C sort -z | xargs -0r sha256sum)
  done
}

# well_formed DIR: every output file of a successful run parses.
well_formed() {
  python3 - "$1" <<'EOF'
import json, os, sys, zipfile, xml.dom.minidom
bad = []
for d, _, files in os.walk(sys.argv[1]):
    for f in files:
        p = os.path.join(d, f)
        try:
            if f.endswith(".json"):
                json.loads(open(p, "rb").read().decode("utf-8"))
            elif f.endswith(".csv"):
                open(p, "rb").read().decode("utf-8")
            elif f.endswith(".xml"):
                xml.dom.minidom.parseString(open(p, "rb").read())
            elif f.endswith(".xlsx"):
                with zipfile.ZipFile(p) as z:
                    for n in z.namelist():
                        if n.endswith(".xml") or n.endswith(".rels"):
                            xml.dom.minidom.parseString(z.read(n))
        except Exception as e:
            bad.append(f"{f}: {type(e).__name__}: {str(e)[:120]}")
print("; ".join(bad))
EOF
}

pass=0 fail=0 known=0 fixed=0 total=0
failed_ids=() known_ids=() fixed_ids=()
while IFS=$'\t' read -r id setup want text mark pattern cmd; do
  case "$id" in ''|'#'*) continue ;; esac
  if [ ${#only[@]} -gt 0 ] && ! printf '%s\n' "${only[@]}" | grep -qxF "$id"; then continue; fi
  total=$((total + 1))
  c=$work/cases/$setup s=$work/shared o=$work/out/$id
  [ -d "$c" ] || { echo "FAIL   $id: no setup '$setup' in gen_corpus.py"; fail=$((fail + 1)); failed_ids+=("$id"); continue; }
  cmd=${cmd//\{C\}/$c}; cmd=${cmd//\{S\}/$s}; cmd=${cmd//\{O\}/$o}
  read -ra argv <<<"$cmd"
  prog=${argv[0]}
  argv[0]=$bin/$prog
  before=$(snapshot "$c" "$s")
  timeout 20 "${argv[@]}" </dev/null >"$work/run/stdout" 2>"$work/run/stderr"
  code=$?
  err=$(tr -d '\000' <"$work/run/stderr")
  problems=()
  for stream in stdout stderr; do
    [ "$(tr -cd '\000' <"$work/run/$stream" | wc -c)" -eq 0 ] || problems+=("NUL byte on $stream")
    iconv -f UTF-8 -t UTF-8 "$work/run/$stream" >/dev/null 2>&1 || problems+=("$stream is not UTF-8")
  done
  if [ "$code" -eq 124 ]; then problems+=("hung (killed after 20 s)")
  elif [ "$code" -ge 128 ]; then problems+=("killed by signal $((code - 128))")
  elif [ "$code" -ne "$want" ]; then problems+=("exit $code, expected $want")
  fi
  if [ "$code" -ge 2 ] && [ "$code" -le 4 ]; then
    lines=$(printf '%s\n' "$err" | grep -c '')
    [ -n "$err" ] && [ "$lines" -eq 1 ] || problems+=("$lines stderr lines, expected one")
    grep -q "^$prog: error: " <<<"$err" || problems+=("stderr is not '$prog: error: ...'")
    [ "$text" = - ] || grep -qF -- "$text" <<<"$err" || problems+=("stderr lacks '$text'")
  elif [ "$text" != - ] && ! cat "$work/run/stdout" "$work/run/stderr" | grep -qF -- "$text"; then
    problems+=("output lacks '$text'")
  fi
  after=$(snapshot "$c" "$s")
  if [ "$prog ${argv[1]:-}" = "msprobe-dump statistic" ] && [ "$code" -eq 0 ]; then
    # statistic writes statistic.csv into the dump by design (it refuses to replace one without
    # --force): the new ones are outputs, checked for UTF-8 like any csv
    before=$(grep -v 'statistic\.csv' <<<"$before"); after=$(grep -v 'statistic\.csv' <<<"$after")
    bad=$(find "$c" -name statistic.csv -exec python3 -c 'import sys
for p in sys.argv[1:]:
    try: open(p, "rb").read().decode("utf-8")
    except UnicodeDecodeError as e: print(p + ": " + str(e))' {} +)
    [ -z "$bad" ] || problems+=("malformed output: $bad")
  fi
  [ "$before" = "$after" ] || problems+=("inputs modified: $(diff <(echo "$before") <(echo "$after") | grep '^[<>]' | head -3 | tr '\n' ' ')")
  if [ -e "$o" ]; then
    if [ "$code" -ge 2 ]; then
      left=$(find "$o" ! -type d | head -5 | tr '\n' ' ')
      [ -z "$left" ] || problems+=("failed run left files: $left")
    fi
    tmp=$(find "$o" -name '*.tmp.*' | head -3 | tr '\n' ' ')
    [ -z "$tmp" ] || problems+=("temporary files left: $tmp")
    if [ "$code" -eq 0 ]; then
      bad=$(well_formed "$o")
      [ -z "$bad" ] || problems+=("malformed output: $bad")
    fi
  fi
  if [ "$pattern" != - ]; then
    find "$o" -name '*.csv' -print0 2>/dev/null | xargs -0r grep -qE -- "$pattern" || problems+=("no output csv line matches /$pattern/")
  fi
  summary="exit $code"
  [ -z "$err" ] || summary+=": $(head -c 200 <<<"$err" | head -1)"
  if [ ${#problems[@]} -eq 0 ]; then
    if [ "$mark" != - ]; then
      echo "FIXED  $id ($summary) -- marked known: $mark"
      fixed=$((fixed + 1)); fixed_ids+=("$id")
    else
      echo "ok     $id ($summary)"
      pass=$((pass + 1))
    fi
  elif [ "$mark" != - ]; then
    echo "KNOWN  $id: $(IFS='|'; echo "${problems[*]}") -- $mark"
    known=$((known + 1)); known_ids+=("$id")
  else
    echo "FAIL   $id: $(IFS='|'; echo "${problems[*]}")"
    echo "       command: ${argv[*]}"
    echo "       stderr: $(head -c 400 <<<"$err")"
    fail=$((fail + 1)); failed_ids+=("$id")
  fi
done <"$here/cases.tsv"

echo "hostile corpus: $total cases: $pass ok, $known known defects, $fixed fixed (still marked known), $fail failed"
[ $known -eq 0 ] || echo "  known: ${known_ids[*]}"
[ $fixed -eq 0 ] || echo "  fixed: ${fixed_ids[*]}"
[ $fail -eq 0 ] || { echo "  failed: ${failed_ids[*]}"; exit 1; }
exit 0
