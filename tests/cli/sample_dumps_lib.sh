# The bundled samples (samples/dist2, tensor mode, two ranks) made into the other kinds of dump the
# CLI tests compare; sourced after lib.sh.
samples=$MSPROBE_ROOT/samples/dist2

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
