#!/usr/bin/python3
"""Converts msprobe's own compare results (xlsx, from ../shared/data/msprobe_samples/dist2/cmp_{t,stat})
into CSV fixtures, one per rank: every cell as Python's str() of what openpyxl reads (floats as repr),
so tests can check our rows cell by cell. Run once with Debian's python3-openpyxl:
    /usr/bin/python3 tests/data/compare/golden/convert_msprobe_xlsx.py ../shared/data/msprobe_samples
"""
import csv
import glob
import os
import re
import sys

import openpyxl

here = os.path.dirname(os.path.abspath(__file__))
samples = sys.argv[1]
for mode in ("t", "stat"):
    for path in sorted(glob.glob(os.path.join(samples, "dist2", f"cmp_{mode}", "compare_result_rank*.xlsx"))):
        rank = re.search(r"compare_result_(rank\d+)_", path).group(1)
        sheet = openpyxl.load_workbook(path, read_only=True).worksheets[0]
        out = os.path.join(here, f"msprobe_cmp_{mode}_{rank}.csv")
        with open(out, "w", newline="") as f:
            writer = csv.writer(f, lineterminator="\n")
            for row in sheet.iter_rows(values_only=True):
                writer.writerow(["" if v is None else repr(v) if isinstance(v, float) else str(v) for v in row])
        print(out)
