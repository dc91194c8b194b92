#!/usr/bin/env python3
"""Checks what LibreOffice read from our workbooks (its csv export, one file per sheet) against what the
programs wrote themselves, for tests/cli/libreoffice_cells_test.sh.

Python's standard csv module, not awk: the cells hold quoted commas, doubled quotes and brackets that
Debian's awk (mawk, no FPAT) cannot split reliably.

  sheet_check.py data REF.csv SHEET.csv...    the data sheets, in order, hold REF's header and rows
  sheet_check.py summary REF.csv SUMMARY.csv  the summary's pass/warning/error/total are REF's Result counts
  sheet_check.py merge APIS SHEET.csv INDEX RANK.csv...
      a merged sheet holds, per NPU Name matched by APIS (comma-separated) and per rank, the RANK csv's
      INDEX cell (docs/formats.md §5.5)

Prints what it checked; exits 1 naming the first cell that differs.
"""
import collections
import csv
import math
import re
import sys

# Columns holding booleans: LibreOffice must show them as TRUE/FALSE, i.e. they are typed, not texts.
BOOL_COLUMNS = {"Requires_grad Consistent"}
# Merge replaces these texts by the two max values (docs/formats.md §5.5 step 4).
MERGE_REPLACED = {"N/A", "unsupported", "Nan"}


def read(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


def fail(message):
    sys.exit(f"sheet_check: {message}")


def number(text):
    try:
        return float(text)
    except ValueError:
        return None


def same(written, shown, column):
    """Whether LibreOffice shows the cell msprobe's csv wrote as `written`.

    Texts must be equal; booleans (csv True/False) come back as TRUE/FALSE when typed and must be in
    BOOL_COLUMNS; numbers may be printed with 15 significant digits, so they agree within 1e-12. The
    csv writes a float's ±inf as " inf"/" -inf", where the xlsx, which has no such numbers, holds the
    texts inf and -inf (docs/compare.md §4.1).
    """
    if written in ("True", "False"):
        return shown == written.upper() or (shown == written and column not in BOOL_COLUMNS)
    if written == shown or (written, shown) in ((" inf", "inf"), (" -inf", "-inf")):
        return True
    a, b = number(written), number(shown)
    if a is None or b is None or not (math.isfinite(a) and math.isfinite(b)):
        return False
    return abs(a - b) <= 1e-12 * max(abs(a), abs(b))


def check_row(where, header, written, shown):
    if len(shown) != len(written):
        fail(f"{where}: {len(written)} cells written, LibreOffice shows {len(shown)}: {shown}")
    for column, w, s in zip(header, written, shown):
        if not same(w, s, column):
            fail(f"{where}, {column}: wrote {w!r}, LibreOffice shows {s!r}")


def check_data(ref_path, sheet_paths):
    ref = read(ref_path)
    header, rows = ref[0], ref[1:]
    shown_rows = []
    for path in sheet_paths:
        sheet = read(path)
        check_row(f"{path} header", header, header, sheet[0])
        shown_rows += sheet[1:]
    if len(shown_rows) != len(rows):
        fail(f"{len(rows)} rows written, LibreOffice shows {len(shown_rows)} in {' '.join(sheet_paths)}")
    for n, (w, s) in enumerate(zip(rows, shown_rows), start=2):
        check_row(f"{ref_path} row {n}", header, w, s)
    print(f"{len(rows)} rows x {len(header)} columns read back as written")


def check_summary(ref_path, summary_path):
    ref = read(ref_path)
    result = ref[0].index("Result")
    counts = collections.Counter(row[result] for row in ref[1:])
    counts["total"] = len(ref) - 1
    summary = read(summary_path)
    for label in ("pass", "warning", "error", "total"):
        # The label's cell is followed by its count; the layout around it is the writer's business.
        found = [row[i + 1] for row in summary for i in range(len(row) - 1) if row[i] == label]
        if not found or number(found[0]) != counts[label]:
            fail(f"{summary_path}: {label} count {found[:1]}, the csv's Result column has {counts[label]}")
    print(f"summary counts {dict(counts)} match the Result column")


def check_merge(apis, sheet_path, index, rank_paths):
    apis = apis.split(",")
    ranks = []  # (label, {NPU Name: expected cell}, names in table order)
    for path in rank_paths:
        label = re.search(r"_(rank\d+)_\d{14}\.csv$", path).group(1)
        ref = read(path)
        header = ref[0]
        col = {name: header.index(name) for name in ("NPU Name", index, "NPU max", "Bench max")}
        cells, names = {}, []
        for row in ref[1:]:
            name = row[col["NPU Name"]]
            if name in cells:
                continue  # the first row per name is used
            cell = row[col[index]]
            if cell in MERGE_REPLACED:
                cell = f"NPU:{row[col['NPU max']]}  Bench:{row[col['Bench max']]}"
            cells[name] = cell
            names.append(name)
        ranks.append((label, cells, names))
    # Row order: per rank in rank order, per api in config order, matching names in table order.
    expected = []
    for _, _, names in ranks:
        for api in apis:
            expected += [n for n in names if api + "." in n and n not in expected]
    sheet = read(sheet_path)
    header = ["NPU Name"] + [label for label, _, _ in ranks]
    check_row(f"{sheet_path} header", header, header, sheet[0])
    if [row[0] for row in sheet[1:]] != expected:
        fail(f"{sheet_path}: NPU Names {[row[0] for row in sheet[1:]]}, expected {expected}")
    for n, (name, shown) in enumerate(zip(expected, sheet[1:]), start=2):
        written = [name] + [cells.get(name, "") for _, cells, _ in ranks]
        check_row(f"{sheet_path} row {n}", [index] * len(header), written, shown)
    print(f"merged sheet {index}: {len(expected)} rows x {len(ranks)} ranks read back as the ranks' values")


def main(argv):
    if len(argv) >= 3 and argv[0] == "data":
        check_data(argv[1], argv[2:])
    elif len(argv) == 3 and argv[0] == "summary":
        check_summary(argv[1], argv[2])
    elif len(argv) >= 5 and argv[0] == "merge":
        check_merge(argv[1], argv[2], argv[3], argv[4:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
