// summary.json as written: its members in order, Python json.dumps(indent=2)'s layout, ASCII only,
// infinite metrics as strings (docs/compare.md "Outputs").
#include <gtest/gtest.h>

#include <cmath>

#include "msprobe/compare/output/compare_report.h"
#include "msprobe/compare/output/summary_report.h"
#include "test_support.h"

namespace msprobe::compare {
namespace {

TEST(SummaryJsonTest, WritesEveryMemberInOrder) {
  SummaryInputs options;
  options.tool_version = "1.2.3";
  options.target_path = "npu/dump.json";
  options.golden_path = "bench/dump.json";
  options.diff_analyze = true;
  const RowRef ref{"r.csv", 4, "Torch.add.0.forward.output.0", "Torch.add.0.forward", Verdict::kError, "[\"x\"]"};

  CompareReport report;
  PairResult pair;
  pair.label = "rank0";
  pair.target_json = "npu/dump.json";
  pair.golden_json = "bench/dump.json";
  pair.mode = "SUMMARY";
  pair.outputs = {"r.csv"};
  pair.streamed = true;
  pair.rows = 3, pair.passed = 1, pair.warnings = 1, pair.errors = 1;
  pair.first_error = ref;
  pair.matched_rows = 2, pair.golden_rows = 4;
  pair.unmatched = {1, RowRef{"r.csv", 2, "Torch.extra.0.forward.input.0", "Torch.extra.0.forward", Verdict::kPass, "[]"},
                    2, "Torch.sub.0.forward.input.0"};
  pair.worst = {{4, "caf\u00e9", Verdict::kError, HUGE_VAL}, {1, "b", Verdict::kWarning, 1e-05}};
  report.pairs.push_back(pair);
  PairResult skipped;
  skipped.label = "rank1";
  skipped.mode = "MD5";
  skipped.skipped_reason = "no rows";
  report.pairs.push_back(skipped);
  report.diff_analyzed = true;
  report.first_diff.stage = DiffStage::kAfterCommunication;
  report.first_diff.nodes = {ref};
  report.first_diff.ranks = {0};

  testing::TempDir tmp;
  ASSERT_TRUE(WriteSummaryJson(tmp.Path("summary.json"), options, report).ok());
  // Every row is the spreadsheet's (docs/compare.md §1.5): data row 4 of r.csv is its row 6.
  EXPECT_EQ(testing::ReadFile(tmp.Path("summary.json")), R"({
  "tool": "msprobe-compare",
  "version": "1.2.3",
  "inputs": {
    "target_path": "npu/dump.json",
    "golden_path": "bench/dump.json",
    "diff_analyze": true
  },
  "counts": {
    "rows": 3,
    "pass": 1,
    "warning": 1,
    "error": 1,
    "unmatched_target": 1,
    "unmatched_golden": 2,
    "unreadable_tensors": 0
  },
  "not_compared": {
    "rows": 3,
    "first": "r.csv row 4: Torch.extra.0.forward.input.0: no golden counterpart"
  },
  "first_error": {
    "file": "r.csv",
    "row": 6,
    "npu_name": "Torch.add.0.forward.output.0",
    "api": "Torch.add.0.forward",
    "result": "error",
    "err_message": "[\"x\"]"
  },
  "first_diff": {
    "stage": "after communication",
    "analyze_file": null,
    "nodes": [
      {
        "rank": 0,
        "row": {
          "file": "r.csv",
          "row": 6,
          "npu_name": "Torch.add.0.forward.output.0",
          "api": "Torch.add.0.forward",
          "result": "error",
          "err_message": "[\"x\"]"
        }
      }
    ]
  },
  "pairs": [
    {
      "label": "rank0",
      "target_json": "npu/dump.json",
      "golden_json": "bench/dump.json",
      "mode": "SUMMARY",
      "outputs": [
        "r.csv"
      ],
      "streamed": true,
      "counts": {
        "rows": 3,
        "pass": 1,
        "warning": 1,
        "error": 1,
        "unmatched_target": 1,
        "unmatched_golden": 2,
        "unreadable_tensors": 0
      },
      "matched_rows": 2,
      "golden_rows": 4,
      "unmatched": {
        "target_rows": 1,
        "golden_rows": 2,
        "first_target": {
          "file": "r.csv",
          "row": 4,
          "npu_name": "Torch.extra.0.forward.input.0",
          "api": "Torch.extra.0.forward",
          "result": "pass",
          "err_message": "[]"
        },
        "first_golden": "Torch.sub.0.forward.input.0"
      },
      "first_error": {
        "file": "r.csv",
        "row": 6,
        "npu_name": "Torch.add.0.forward.output.0",
        "api": "Torch.add.0.forward",
        "result": "error",
        "err_message": "[\"x\"]"
      },
      "worst_metric": "NormRelativeErr",
      "worst": [
        {
          "file": "r.csv",
          "row": 6,
          "npu_name": "caf\u00e9",
          "value": "inf",
          "result": "error"
        },
        {
          "file": "r.csv",
          "row": 3,
          "npu_name": "b",
          "value": 1e-05,
          "result": "warning"
        }
      ]
    },
    {
      "label": "rank1",
      "target_json": "",
      "golden_json": "",
      "mode": "MD5",
      "outputs": [],
      "skipped": "no rows",
      "streamed": false,
      "counts": {
        "rows": 0,
        "pass": 0,
        "warning": 0,
        "error": 0,
        "unmatched_target": 0,
        "unmatched_golden": 0,
        "unreadable_tensors": 0
      },
      "matched_rows": 0,
      "golden_rows": 0,
      "unmatched": {
        "target_rows": 0,
        "golden_rows": 0,
        "first_target": null,
        "first_golden": null
      },
      "first_error": null,
      "worst_metric": "",
      "worst": []
    }
  ]
}
)");
}

}  // namespace
}  // namespace msprobe::compare
