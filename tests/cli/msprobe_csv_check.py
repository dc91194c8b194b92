#!/usr/bin/env python3
"""Checks one of our result csvs against the csv msprobe itself wrote for the same dumps.

  msprobe_csv_check.py OURS.csv MSPROBE.csv

Every cell must be the same text, except EucDist, which may differ within 1e-12 relative: msprobe sums
the squared differences left to right, we in blocks (docs/compare.md §4.2). Python's csv module: the
cells hold quoted commas and doubled quotes. Exits 1 naming the first cell that differs.
"""
import csv
import sys


def read(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


def same(column, ours, theirs):
    if ours == theirs:
        return True
    if column != "EucDist":
        return False
    try:
        a, b = float(ours), float(theirs)
    except ValueError:
        return False
    return abs(a - b) <= 1e-12 * max(abs(a), abs(b))


def main():
    ours, theirs = read(sys.argv[1]), read(sys.argv[2])
    if len(ours) != len(theirs):
        sys.exit(f"msprobe_csv_check: {len(ours)} rows, msprobe {len(theirs)}")
    header = theirs[0]
    if ours[0] != header:
        sys.exit(f"msprobe_csv_check: header {ours[0]}, msprobe {header}")
    for r, (a, b) in enumerate(zip(ours, theirs)):
        if len(a) != len(b):
            sys.exit(f"msprobe_csv_check: row {r} has {len(a)} cells, msprobe {len(b)}")
        for column, x, y in zip(header, a, b):
            if not same(column, x, y):
                sys.exit(f"msprobe_csv_check: row {r} ({a[0]}) column {column}: ours '{x}', msprobe '{y}'")
    print(f"msprobe_csv_check: {len(ours) - 1} rows as msprobe's")


if __name__ == "__main__":
    main()
