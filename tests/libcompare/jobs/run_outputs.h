// What the whole-run compare tests share: statistics dumps made to exercise batches and ranks, and a
// run's outputs read back for comparing two runs that must write the same (streamed or not, in one
// process or several).
#pragma once

#include <filesystem>
#include <map>
#include <string>

#include "msprobe/compare/jobs/compare_job.h"

namespace msprobe::compare::run_outputs {

struct DumpShape {
  bool md5 = false;
  bool golden = false;           // the golden side: some values scaled, one API missing
  int rank = 0;
  bool framework_last = false;   // "framework": "mindspore" after "data" (target only)
  bool joined_grads = false;     // two parameters_grad entries that -da reads as one API batch
};

// 30 linear calls, each with its backward, an all_reduce every 7th; the golden side scales the
// outputs of calls 9 and 20 (an error and a warning) and lacks call 14.
std::string Dump(const DumpShape& shape);
void Write(const std::filesystem::path& path, const std::string& text);
// A target and golden dump.json pair under `root` (npu/dump.json, bench/dump.json), and the options
// comparing them with --json.
CompareOptions FileDumps(const std::filesystem::path& root, const DumpShape& target, const DumpShape& golden);
// Ranks 0..ranks-1 under root/npu/step0 and root/bench/step0, every odd rank's golden differing, and
// the options comparing the two step directories with --json.
CompareOptions RankDumps(const std::filesystem::path& root, int ranks, bool md5 = false);

// The outputs of one run by kind: the output file name without its timestamp → its content, or,
// for a workbook, every cell of every sheet rendered as text.
std::map<std::string, std::string> Outputs(const CompareReport& report);
// Each pair's counts, first rows and worst rows, the JUnit suites' cases and the first diff.
std::string Summary(const CompareReport& report);
// A JUnit report without its times and timestamps, and with directory `from` named as `to`.
std::string NormalizedJunit(std::string junit, const std::string& from, const std::string& to);

}  // namespace msprobe::compare::run_outputs
