// msprobe-compare's whole job (docs/compare.md §1.2, §7, §8): decide what the two paths are (two json
// files, two step dirs with rank*/proc* pairs, graph/pynative mix dirs, or two rank dirs), compare
// each pair and write its results; with -da, msprobe's per-rank json and the first-diff analysis
// across ranks; then the CI reports (summary.json, JUnit) and the gates' verdict.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "msprobe/compare/metrics/right_matmul.h"
#include "msprobe/compare/output/compare_report.h"
#include "msprobe/compare/rows/consistent_keys.h"
#include "msprobe/compare/recompute/attribution.h"
#include "msprobe/compare/rows/call_alignment.h"
#include "msprobe/dump/util/job_context.h"
#include "msprobe/dump/util/status.h"

namespace msprobe::compare {

struct CompareOptions {
  std::string target_path, golden_path;
  std::string output_dir = "./output";
  bool fuzzy_match = false;
  std::string data_mapping;            // -dm yaml
  bool cell_mapping = false;           // -cm given (with or without a yaml)
  std::string cell_mapping_yaml;
  bool api_mapping = false;            // -am given (with or without a yaml)
  std::string api_mapping_yaml;
  bool layer_mapping = false;          // -lm given (with or without a yaml)
  std::string layer_mapping_yaml;
  bool write_csv = true, write_xlsx = true, write_json = false;
  bool write_html = false;             // --html: compare_report_{ts}.html (docs/compare.md §10)
  std::string stack_path;              // -i compare.json's stack_path; empty: stack.json beside the target json
  // -da: statistics compare, compare_result{_rankN}_{ts}.json per pair and diff_analyze_{ns}.json.
  // The csv/xlsx are written only when asked for (write_csv/write_xlsx), as msprobe writes none.
  bool diff_analyze = false;
  // --attribute (tensor mode): the Origin / NPU self err / Bench self err columns and first_cause
  // (docs/ops.md §7).
  bool attribute = false;
  // --align (ours, docs/compare.md §3.8): pair the rows msprobe's matching left unmatched by aligning
  // the two runs' calls, below which score a call stays unmatched; the Match column. Compares every
  // pair in memory (a streamed pair reads its target once, in order).
  bool align = false;
  float align_threshold = kDefaultAlignThreshold;
  // --tensor-postprocess (tensor mode): the right_matmul products before the metrics (docs/compare.md
  // §4.2 step 3); null: none. Owned by the caller for the run.
  const RightMatmul* right_matmul = nullptr;
  // --consistent_check --backend: msprobe's verl train (target) vs rollout (golden) compare
  // (docs/compare.md §3.9); kNone for the usual compare.
  ConsistentBackend consistent = ConsistentBackend::kNone;
  std::optional<Verdict> fail_on;     // --fail-on: the gate's Result level (warning or error); none: no gate
  bool fail_on_first_diff = false;    // --fail-on-first-diff
  std::string junit_path;             // --junit FILE; empty: none
  std::string tool_version;           // for summary.json
  // Rows of the target a streamed pair handles at once (docs/compare.md §6.1); 0 compares every pair
  // in memory. Not a flag: the tests set it to check that both ways write the same.
  size_t stream_batch_rows = 1 << 14;
};

// `context`: progress (one bar for the run, counting "bytes": every pair's target dump.json, the total
// fixed at the first report, docs/compare.md §7.5; with several processes, reported on process 0
// only), and the processes the run is spread over (docs/distributed.md), whose
// on_failure hears of each pair this process failed to compare, as it happens (the run's error is
// the first in pair order). With more than one process, every process calls it alike: process 0
// returns the report; the others an empty one, or the run's error.
Result<CompareReport> RunCompare(const CompareOptions& options, const JobContext& context = {});

// Why the gates fail a finished run; nullopt when they pass (docs/compare.md §1.5). In order, failing
// every gate: inputs not compared (CompareReport::skipped_inputs), a pair in which nothing was compared
// (no target row matched, or a side without rows), tensors that could not be read; then --fail-on's
// first row at its level; then, for --fail-on warning, the rows not compared; then -da's first diff for
// --fail-on-first-diff.
struct GateFailure {
  std::string gate;    // "--fail-on error", "--fail-on warning", "--fail-on-first-diff"
  // "FILE row 26: NPU_NAME: error: ERR_MESSAGE", "11 row(s) not compared; first: …",
  // "rank0: no target row matched a golden row (…): …", "2 tensor(s) could not be read, …"
  std::string reason;
};
std::optional<GateFailure> EvaluateGates(const CompareOptions& options, const CompareReport& report);

}  // namespace msprobe::compare
