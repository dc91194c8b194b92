#!/usr/bin/env python3
"""Renders a trend database (msprobe data2db's or ours) as text that does not depend on what msprobe
leaves to chance, for tests to diff: tags and their mapping by (name, category, metric) rather than
by id (msprobe inserts tags from a Python set, in an order that changes with PYTHONHASHSEED).
Everything else is kept: the schema (whitespace folded), metric and target ids, global_stats,
every trend_data row, sqlite_sequence.

  trend_canon.py DB [--digest] [--monitor-sets]

--digest: each section as its line count and SHA-256 (the expected text of a large database).
--monitor-sets: a monitor database's global_stats with its metric columns and each one's statistics
  sorted (msprobe orders them by directory listing and a Python set).
Uses Python's sqlite3 module.
"""
import hashlib
import sqlite3
import sys


def sections(con, monitor_sets):
    out = []
    tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    schema = []
    for (name, sql) in con.execute("SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name"):
        if name == "global_stats" and monitor_sets:
            continue  # its column order is msprobe's listing order
        schema.append(" ".join(sql.split()))
    out.append(("tables", [", ".join(tables)] + schema))
    out.append(("monitoring_metrics", [repr(r) for r in con.execute(
        "SELECT metric_id, metric_name FROM monitoring_metrics ORDER BY metric_id")]))
    out.append(("monitoring_targets", [repr(r) for r in con.execute(
        "SELECT target_id, target_name, vpp_stage, micro_step FROM monitoring_targets ORDER BY target_id")]))
    out.append(("monitoring_tags (tag_name, category, metric_id)", [repr(r) for r in con.execute(
        "SELECT tag_name, category, metric_id FROM monitoring_tags ORDER BY metric_id, category, tag_name")]))
    out.append(("tag_target_mapping (target_id, metric_id, category, tag_name)", [repr(r) for r in con.execute(
        "SELECT m.target_id, t.metric_id, t.category, t.tag_name FROM tag_target_mapping m "
        "JOIN monitoring_tags t ON t.tag_id = m.tag_id ORDER BY m.target_id, t.metric_id, t.category, t.tag_name")]))
    if "global_stats" in tables:
        cols = [r[1] for r in con.execute("PRAGMA table_info(global_stats)")]
        row = list(con.execute("SELECT * FROM global_stats"))
        if monitor_sets:
            pairs = sorted(zip(cols[3:], row[0][3:])) if row else []
            cols = cols[:3] + [c for c, _ in pairs]
            row = [tuple(row[0][:3]) + tuple(",".join(sorted(v.split(","))) if v else v for _, v in pairs)] if row else []
        out.append(("global_stats " + repr(cols), [repr(tuple(r)) for r in row]))
    if "trend_data" in tables:
        cols = [r[1] for r in con.execute("PRAGMA table_info(trend_data)")]
        out.append(("trend_data " + repr(cols), [repr(r) for r in con.execute(
            "SELECT * FROM trend_data ORDER BY rank, step, target_id, metric_id")]))
    if "sqlite_sequence" in tables:
        out.append(("sqlite_sequence", [repr(r) for r in con.execute("SELECT name, seq FROM sqlite_sequence ORDER BY name")]))
    return out


def main(argv):
    if not argv or argv[0].startswith("-"):
        sys.exit(__doc__)
    con = sqlite3.connect("file:" + argv[0] + "?mode=ro", uri=True)
    for title, lines in sections(con, "--monitor-sets" in argv):
        if "--digest" in argv:
            digest = hashlib.sha256("\n".join(lines).encode()).hexdigest()
            print(f"-- {title}: {len(lines)} line(s), sha256 {digest}")
        else:
            print("-- " + title)
            if lines:
                print("\n".join(lines))
    con.close()


if __name__ == "__main__":
    main(sys.argv[1:])
