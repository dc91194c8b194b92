// What a folder given as a dump holds, told apart by kind (msprobe dumps at every level, docs/formats.md
// §4; kernel dump trees, docs/kernel_dump.md §5): so that a program given the wrong folder can say what
// it found and what to give instead. In the kernel room, libdump's top, because it knows both kinds.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "msprobe/dump/text/name_list.h"
#include "msprobe/dump/util/status.h"

namespace msprobe {

struct FolderSurvey {
  enum class Kind : uint8_t {
    kEmpty,             // nothing in it
    kRank,              // a dump.json or debug.json
    kJsonNotAFile,      // a dump.json or debug.json that is a directory, a fifo…
    kStep,              // rank*/ or proc*/ folders
    kDumpRoot,          // step*/ folders
    kRankWithoutJson,   // what a rank folder holds beside its json (construct.json, stack.json,
                        // dump_tensor_data/) but no json
    kDumpTree,          // dump.json or debug.json files deeper down
    kKernelNpy,         // kernel npy dump directories (tensor files named as §4.2, statistic.csv)
    kKernelBin,         // kernel .bin dumps
    kOther,             // none of these
  };
  Kind kind = Kind::kEmpty;
  std::vector<std::string> names;  // the folder's own entries, sorted (naturally)
  std::vector<std::string> steps;  // kDumpRoot: the step folders' names
  std::vector<std::string> procs;  // proc<digits> folders
  std::vector<int64_t> ranks;      // kKernelNpy: the ranks of its directories
  std::string json_type;           // kJsonNotAFile: "a directory", "a fifo", …
  // Over the whole tree (symlinks not followed):
  uint64_t dump_jsons = 0, pt_files = 0, npy_files = 0, bin_dumps = 0, files = 0;
  bool mapping_csv = false, statistic_csv = false;
};

// Surveys `dir`, which must be a directory.
FolderSurvey SurveyFolder(const std::string& dir);

// What the survey found, for a message: "an msprobe dump (dump.json, 12 .pt files)", "an npy kernel
// dump (mapping.csv, 40 .npy files)", "nothing", "3 other files (a.txt, b.csv, c)".
std::string DescribeFolder(const FolderSurvey& survey);

// What every program reading msprobe dumps takes, for its errors.
inline constexpr const char* kExpectedDump =
    "expected a dump: a step folder (rank*/ or proc*/ with dump.json), a rank folder (dump.json), or a dump.json";

// What a folder without a readable dump is, for the error "DIR: <this>": "empty folder; expected …",
// "rank folder without dump.json (it holds: …); was the dump interrupted?", "an npy kernel dump tree
// (ranks 0, 1), not an msprobe dump; …", else what it holds.
std::string NoDumpReason(const FolderSurvey& survey);

// `status` unchanged unless it is a NotFound whose source is a directory (FindDumpJsonFiles found no
// dump.json in the folder given, or in a rank folder below it): then an InvalidInput naming what that
// folder holds instead, as when it is given alone.
Status ExplainNoDumpJson(Status status);

}  // namespace msprobe
