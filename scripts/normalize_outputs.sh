#!/usr/bin/env bash
# Normalizes a tree of program outputs so two runs can be diffed: xlsx packages unpacked, timestamps
# (14+ digits) in names and contents as TS, the tree's own path as OUT, timing fields as X.
# Usage: scripts/normalize_outputs.sh DIR
set -euo pipefail
out=$(cd "$1" && pwd)
find "$out" -name '*.xlsx' | while read -r x; do mkdir -p "$x.d" && (cd "$x.d" && unzip -q "$x") && rm "$x"; done
find "$out" -depth -name '*[0-9]*' | while read -r f; do
  n=$(basename "$f" | sed -E 's/[0-9]{14,}/TS/g')
  [ "$n" = "$(basename "$f")" ] || mv "$f" "$(dirname "$f")/$n"
done
find "$out" -type f \( -name '*.json' -o -name '*.xml' -o -name '*.stdout' -o -name '*.stderr' -o -name '*.csv' \
  -o -name '*.html' \) -print0 | xargs -0 -r sed -i -E "s/[0-9]{14,}/TS/g; s#$out#OUT#g; s#\"(time|timestamp|elapsed_s|seconds|created)\": [^,}]*#\"\1\": X#g; s/time=\"[^\"]*\"/time=\"X\"/g; s/timestamp=\"[^\"]*\"/timestamp=\"X\"/g; s#<dcterms:(created|modified)[^<]*<#<dcterms:\1>X<#g"
