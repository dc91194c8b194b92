"""Validates every msprobe-compare summary.json under a folder against docs/summary.schema.json (JSON Schema
draft 7), so each CLI test checks the summaries its runs wrote (lib.sh's finish).
Usage: summary_schema_check.py SCHEMA DIR"""
import json
import pathlib
import sys

import jsonschema


def main(schema_path, folder):
    validator = jsonschema.Draft7Validator(json.load(open(schema_path, encoding="utf-8")))
    checked = 0
    for path in sorted(pathlib.Path(folder).rglob("summary.json")):
        summary = json.load(open(path, encoding="utf-8"))
        if summary.get("tool") != "msprobe-compare":
            continue  # recompute's, merge's: other documents
        errors = sorted(validator.iter_errors(summary), key=lambda e: list(e.absolute_path))
        if errors:
            where = "/".join(str(p) for p in errors[0].absolute_path)
            sys.exit(f"{path}: {where}: {errors[0].message}")
        checked += 1
    print(checked)


if __name__ == "__main__":
    main(*sys.argv[1:])
