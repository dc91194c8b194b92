// `msprobe-dump recompute` (docs/ops.md §6): the golden-free check. Every forward API call of a dump
// is recomputed in float64 from its own dumped inputs; a call whose dumped output departs from that
// reference beyond its dtype's tolerance computed badly, whatever its inputs were.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "msprobe/dump/util/job_context.h"
#include "msprobe/dump/util/status.h"

namespace msprobe::compare {

struct RecomputeOptions {
  std::string input;                 // a dump.json, rank dir, step dir or dump root
  std::string output_dir = "./output";
  std::string tool_version;          // for summary.json
  bool write_html = false;           // --html: compare_report_{ts}.html (docs/compare.md §10)
};

struct RecomputeCounts {
  uint64_t calls = 0, ok = 0, exceeds = 0, unsupported = 0;
  uint64_t unreadable = 0;  // calls a tensor file of which could not be read: not checked
  uint64_t skipped = 0;     // entries that are not forward API calls (backward, modules)
};

struct RecomputePart {
  std::string dump_json;
  std::vector<std::string> outputs;  // recompute_result[_{label}]_{ts}.csv and .xlsx
  RecomputeCounts counts;
};

// A call of the run and its row in the tables: the first exceeding, the first unreadable.
struct CallRow {
  std::string api, dump_json, file;
  uint64_t row = 0;    // 0-based data row of `file`
  std::string reason;  // the check's reason: for an unreadable call, the file and its problem
};

struct RecomputeReport {
  std::vector<RecomputePart> parts;
  RecomputeCounts counts;                  // summed over the parts
  std::optional<CallRow> first_exceeding;  // in the first part that has one
  std::optional<CallRow> first_unreadable;  // likewise; the run fails on it as on an exceeding call
  // The run's dump.json files of no forward API call beside others that have some (an interrupted
  // rank, an L0 dump among L1 ones): nothing of them was checked, so the run fails on them too.
  std::vector<std::string> dumps_without_calls;
  std::string summary_file;                    // OUT/summary.json
  std::string html_file;                       // --html: the run's page
};

// InvalidInput, before any work, for a dump with nothing to recompute: a statistics or md5 dump, a
// debug.json, a dump without forward API calls (level L0), calls none of which has a reference; and,
// after the check, when no call could be checked (each unsupported or unreadable): then no table is
// written.
// Progress: ("API calls", calls checked, the calls of every dump), from worker threads.
Result<RecomputeReport> RunRecompute(const RecomputeOptions& options, const JobContext& context = {});

}  // namespace msprobe::compare
