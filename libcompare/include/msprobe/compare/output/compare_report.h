// What a compare run reports of itself, as plain data: per pair its files, counts and first rows,
// the first diff of -da and the first cause of --attribute. summary.json, JUnit and the HTML page
// render it; the compare and kernel-compare jobs fill it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "msprobe/compare/first_diff/diff_analyze.h"
#include "msprobe/compare/output/junit_report.h"
#include "msprobe/compare/output/summary_report.h"

namespace msprobe::compare {

// --attribute: the first API whose difference is its own (op) or enters from outside the ops (input).
struct FirstCause {
  std::string api;                      // "Functional.gelu.0.forward"
  std::string kind;                     // "op" or "input"
  std::optional<std::string> argument;  // input: the differing input's row ("…forward.input.1")
  size_t row = 0;                       // the API's first row in the table
};

// The rows of a pair that were not compared because they have no counterpart (docs/compare.md §5.4).
// msprobe writes a target row without one with Bench Name N/A and Result pass, and drops a golden row
// without one; neither may pass a gate unseen.
struct UnmatchedRows {
  uint64_t target = 0;                 // target rows without a golden counterpart (-fm: also those its queue never reached)
  std::optional<RowRef> first_target;  // the first of them written (Bench Name N/A)
  uint64_t golden = 0;                 // golden rows no target row matched
  std::string first_golden;            // its row name ("" when none)
};

// In a message between processes (coding.h).
void PutUnmatchedRows(std::string* dst, const UnmatchedRows& rows);
[[nodiscard]] bool GetUnmatchedRows(Decoder* in, UnmatchedRows* rows);

// What one compared pair produced.
struct PairResult {
  std::string target_json, golden_json;
  std::string label;                   // "rank0", "proc12", or the target json for a file pair
  std::vector<std::string> outputs;    // files written
  std::string mode;                    // ALL, SUMMARY or MD5 (as compared)
  uint64_t rows = 0, passed = 0, warnings = 0, errors = 0;
  std::string skipped_reason;          // non-empty when nothing was written for this pair
  std::optional<RowRef> first_error, first_warning;  // first_warning: the first row at warning or worse
  std::vector<WorstRow> worst;         // the 20 worst rows by the main metric
  std::optional<FirstCause> first_cause;  // --attribute: the first API whose origin is op or input
  // Tensor mode: rows whose tensor file was missing, refused or unreadable (msprobe writes them as
  // "unsupported" and passes them), and why the first one failed.
  uint64_t unreadable_tensors = 0;
  std::string first_unreadable;
  uint64_t matched_rows = 0;           // rows with a golden counterpart
  uint64_t golden_rows = 0;            // rows of the golden dump
  UnmatchedRows unmatched;
  std::string target_level, golden_level;  // the dumps' "level" (L0, L1, mix, …; "" when not said)
  // The target was streamed in batches against an index of the golden (docs/compare.md §6.1), not
  // held in memory whole.
  bool streamed = false;

  // The file that row references of this pair name: its first output, or the compared target json
  // when nothing was written.
  const std::string& RowFile() const { return outputs.empty() ? target_json : outputs.front(); }
  // Rows not compared: without a counterpart on either side, or with a tensor file that could not be read.
  uint64_t NotCompared() const { return unmatched.target + unmatched.golden + unreadable_tensors; }
  // No row found its golden counterpart: the two dumps do not correspond, or a side has no rows (the
  // pair was skipped). Nothing was compared.
  bool NothingCompared() const { return matched_rows == 0; }
};
// A pair's result in a message between processes (coding.h), every field.
void PutPairResult(std::string* dst, const PairResult& result);
[[nodiscard]] bool GetPairResult(Decoder* in, PairResult* result);

struct FirstDiffReport {
  DiffStage stage = DiffStage::kNone;  // kNone: -da found nothing (or did not run)
  std::string analyze_file;            // diff_analyze_{ns}.json
  std::vector<RowRef> nodes;           // per node: the rank's result file and its first differing row
  std::vector<int> ranks;              // the rank of each node
};

struct CompareReport {
  std::vector<PairResult> pairs;
  // Ranks, steps or parts the inputs hold on one side only, or without their json: never compared
  // ("DIR: no dump.json (OTHER has one); its rank is not compared").
  std::vector<std::string> skipped_inputs;
  bool diff_analyzed = false;
  FirstDiffReport first_diff;
  std::vector<JunitSuite> junit;       // filled when options.junit_path is set
  std::string summary_file;            // summary.json
  std::string html_file;               // --html: the run's compare_report_{ts}.html
};

// The pair whose rows `RowRef::file` names (its RowFile), or null.
const PairResult* PairOfRowFile(const CompareReport& report, const std::string& file);

}  // namespace msprobe::compare
