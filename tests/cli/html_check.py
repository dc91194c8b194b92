"""Checks a compare_report_*.html against the run's summary.json, without a browser (the browser test is
html_report_browser_test.sh): self-contained (no element loads anything), one data part per compared
pair with its rows and verdicts, and the links the run should have.
Usage: html_check.py PAGE.html SUMMARY.json [first_diff] [first_cause] [flat_tree]
       html_check.py PAGE.html SUMMARY.json recompute   (msprobe-dump recompute's page and summary)"""
import json
import re
import sys


def page_data(page_path):
    """The page's data, after checking that nothing in the page loads anything."""
    page = open(page_path, encoding="utf-8").read()
    # The markup outside the scripts (the inlined library's code holds "<img" in its strings).
    markup = re.sub(r"(<script\b[^>]*>).*?</script>", r"\1", page, flags=re.S)
    tags = re.findall(r"<(script|link|img|iframe|object|embed)\b([^>]*)>", markup)
    assert all(name == "script" for name, _ in tags), f"elements that load: {tags}"
    assert not any("src" in attrs for _, attrs in tags), f"a script with src: {tags}"
    assert "Content-Security-Policy" in page
    return json.loads(re.search(r'<script id="report-data" type="application/json">(.*?)</script>', page, re.S)[1])


def check_recompute(data, summary):
    assert data["mode"] == "RECOMPUTE", data["mode"]
    verdicts = [v for part in data["parts"] for v in part["verdict"]]
    counts = summary["counts"]
    # unreadable calls fail the run as exceeding ones do: both are errors on the page
    assert [verdicts.count(v) for v in (0, 1, 2)] == [counts["ok"], counts["unsupported"],
                                                      counts["exceeds"] + counts["unreadable"]], counts


def main(page_path, summary_path, *expect):
    data = page_data(page_path)
    summary = json.load(open(summary_path, encoding="utf-8"))
    if "recompute" in expect:
        return check_recompute(data, summary)
    pairs = [p for p in summary["pairs"] if p["counts"]["rows"] > 0]
    assert len(data["parts"]) == len(pairs), (len(data["parts"]), len(pairs))
    # The header's pass count is summary.json's: rows compared and passing (a row not compared, whatever
    # its Result, is none); the rows' own Results hold the rest.
    assert data["passed"] == summary["counts"]["pass"], (data["passed"], summary["counts"]["pass"])
    for part, pair in zip(data["parts"], pairs):
        verdicts = part["verdict"]
        assert [verdicts.count(v) for v in (1, 2)] == [pair["counts"][k] for k in ("warning", "error")], pair["label"]
        assert verdicts.count(0) - pair["counts"]["pass"] <= pair["counts"]["unmatched_target"] + pair["counts"]["unreadable_tensors"], pair["label"]
        for column in ("api", "tail", "dtype", "shape", "err", "main"):
            assert len(part[column]) == len(verdicts), column
        for metric in part["metrics"]:
            assert len(metric["values"]) == len(verdicts), metric["name"]
        if pair["first_error"]:
            row = pair["first_error"]["row"] - 2  # summary.json's row is the spreadsheet's: header = 1
            tree = part["tree"]
            name = part["strings"][part["tail"][row]] if row in part["wholeNames"] else tree["names"][part["api"][row]] + part["strings"][part["tail"][row]]
            assert name == pair["first_error"]["npu_name"], (name, pair["first_error"])
        assert bool(part["tree"]["note"]) == ("flat_tree" in expect), part["tree"]["note"]
    assert (data["firstDiff"] is not None) == ("first_diff" in expect), data["firstDiff"]
    assert (data["firstCause"] is not None) == ("first_cause" in expect), data["firstCause"]
    # the header shows the rows not compared, as summary.json counts them
    counts = summary["counts"]
    assert data["notCompared"] == [counts[k] for k in ("unmatched_target", "unmatched_golden", "unreadable_tensors")], data["notCompared"]
    if summary.get("first_cause"):  # the link names the API and its kind
        cause = summary["first_cause"]
        assert data["firstCauseName"] == f'{cause["api"]} ({cause["kind"]})', data["firstCauseName"]


if __name__ == "__main__":
    main(*sys.argv[1:])
