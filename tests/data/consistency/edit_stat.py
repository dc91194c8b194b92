#!/usr/bin/env python3
"""Changes one recorded statistic (or md5) of a dump.json in its last digit, as silent corruption would
(tests/cli/msprobe_dump_consistency_test.sh, consistency_page_browser_test.sh).

Usage: edit_stat.py DUMP_JSON KEY SIDE INDEX STAT
  SIDE: input_args, output, ... (INDEX a list index) or parameters (INDEX the parameter's name)."""
import json
import sys

path, key, side, index, stat = sys.argv[1:6]
d = json.load(open(path))
arg = d["data"][key][side][index if side == "parameters" else int(index)]
text = arg[stat] if isinstance(arg[stat], str) else repr(arg[stat])
text = text[:-1] + ("1" if text[-1] != "1" else "2")
arg[stat] = text if isinstance(arg[stat], str) else float(text)
json.dump(d, open(path, "w"), indent=1)
