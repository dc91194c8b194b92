// `msprobe-dump consistency` (docs/consistency.md): the golden-free check across ranks. Values a
// collective makes identical on every member of its group (and, under data parallelism, the
// parameters it keeps identical) must agree exactly: a rank that disagrees is an inconsistency. Every
// other (step, API, argument) has each rank's Norm and Max scored against the other ranks by a robust
// z-score: far ones are suspects.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/dump/util/job_context.h"
#include "msprobe/dump/util/status.h"

namespace msprobe::compare {

// How the data-parallel groups are known (--data-parallel): inferred per parameter from the
// collective that reduced its gradient (auto), not at all (none), all ranks of a step (all), or
// given (e.g. "0-3/4-7": groups split by '/', ranks by ',', a-b a range).
struct DataParallelSpec {
  enum class Kind : uint8_t { kAuto, kNone, kAll, kGroups };
  Kind kind = Kind::kAuto;
  std::vector<std::vector<int64_t>> groups;  // kGroups: each ascending, no rank in two
};
// Errors: InvalidInput naming "--data-parallel" (an empty group, a bad number or range, a rank twice).
Result<DataParallelSpec> ParseDataParallel(std::string_view text);

struct ConsistencyOptions {
  std::string input;                   // a step dir (rank*/, proc*/) or a dump root (step*/rank*/)
  std::string output_dir = "./output";
  std::string tool_version;            // for summary.json
  DataParallelSpec data_parallel;
  bool grads_reduced = false;          // --grads-reduced: parameters_grad agree across a data-parallel group too
  double z_threshold = 3.5;            // |modified z| above it: a suspect
  bool recompute_stats = false;        // --recompute-stats: statistics and CRC-32 from the tensor files
  bool fail_on_suspect = false;        // --fail-on suspect: suspects fail the gate too
  bool write_html = false;             // --html: consistency_report_{ts}.html
};

struct ConsistencyFinding {
  enum class Kind : uint8_t { kInconsistency, kSuspect };
  Kind kind = Kind::kInconsistency;
  int64_t step = 0, rank = 0;
  std::string api;       // the entry: "Distributed.all_reduce.3.forward"
  std::string name;      // the argument: "Distributed.all_reduce.3.forward.output.0"
  std::string check;     // "collective result", "parameter", "parameter gradient", "Norm z-score", "Max z-score"
  std::string group;     // the ranks compared: "0-3", "0,2,4"
  std::string value;     // this rank's value(s)
  std::string expected;  // the majority's value, or the median
  std::optional<double> score;  // the modified z-score (suspects)
  std::string reason;
};
std::string_view FindingKindName(ConsistencyFinding::Kind kind);  // "inconsistency", "suspect"

// One kind of check, whether it ran and over what; summary.json's "checks" and the page's list.
struct ConsistencyCheck {
  std::string name;    // "collective results", "parameters", "parameter gradients", "z-scores"
  bool ran = false;
  uint64_t compared = 0;  // values compared (identity: one per rank and argument; z-score: per statistic)
  std::string detail;  // how the groups were known, or why it did not run
};

struct ConsistencyCounts {
  uint64_t steps = 0, ranks = 0, dumps = 0, arguments = 0;  // arguments: tensor arguments read, over ranks
  uint64_t inconsistencies = 0, suspects = 0;
};

struct ConsistencyReport {
  std::string mode;  // "statistics", "md5", "tensor" (the dumps' task), "recomputed" with --recompute-stats
  ConsistencyCounts counts;
  std::vector<ConsistencyCheck> checks;
  std::vector<ConsistencyFinding> findings;  // inconsistencies first, then suspects; each by step, call order, rank
  std::string csv_file, xlsx_file, html_file, summary_file;
  // No check could run (no collective, no parameter group, too few ranks): nothing passed, so the gate fails.
  bool nothing_checked = false;
  // Rank folders without their dump.json (an interrupted rank): not checked, so the gate fails too.
  std::vector<std::string> ranks_without_dump_json;
  // An inconsistency, a suspect with fail_on_suspect, nothing checked, or a rank not checked.
  bool gate_failed = false;
};

// Progress: ("dump.json files", read, all). The ranks of a step are read on all cores, a step at a
// time. With a context.cluster of several processes (docs/distributed.md §9) each reads its share of
// every step and process 0 checks and writes; the others' report holds no findings and no files.
Result<ConsistencyReport> RunConsistency(const ConsistencyOptions& options, const JobContext& context = {});

}  // namespace msprobe::compare
