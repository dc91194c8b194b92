// msprobe-dump verify: recompute the statistics of every tensor file a dump.json/debug.json names
// and check them against what the json recorded; report missing, unreadable, mismatching and
// unreferenced files. Catches corrupted or incomplete dumps before a long compare.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "msprobe/dump/framework/dump_json.h"
#include "msprobe/dump/util/job_context.h"
#include "msprobe/dump/util/status.h"
#include "msprobe/dump/tensor/tensor_source.h"
#include "msprobe/dump/tensor/tensor_stats.h"

namespace msprobe {

// kEmpty: a json file whose "data" holds no entry beside others that hold some (an interrupted rank):
// nothing of it was verified.
enum class VerifyFinding : uint8_t { kMismatch, kMissing, kUnreadable, kUnreferenced, kEmpty };
std::string_view FindingName(VerifyFinding f);  // "mismatch", "missing", ...

struct VerifyIssue {
  VerifyFinding kind;
  std::string file;    // the tensor file (or the data_name when it could not be resolved)
  std::string where;   // "<entry>.<path>" in the json, empty for unreferenced files
  std::string detail;  // e.g. "Mean recorded 0.5, computed 0.25"
};

struct VerifyReport {
  std::vector<std::string> json_files;
  uint64_t entries = 0;         // of the json files' "data", counted when they name no tensor file
  std::string task;             // the first json's task ("tensor", "statistics", "md5", "" when unset)
  uint64_t tensor_records = 0;  // tensor objects in the json files
  uint64_t files_checked = 0;   // data_name files read and compared
  uint64_t files_missing = 0;   // data_name files that do not exist (each also an issue)
  uint64_t files_unreadable = 0;  // refused data_names, files that could not be read (each an issue)
  uint64_t bytes_read = 0;
  std::vector<VerifyIssue> issues;
  bool ok() const { return issues.empty(); }
};

struct VerifyOptions {
  std::string path;  // a dump.json, a debug.json, a rank dir, a step dir or a dump root
};

// A json that cannot be read or parsed is an error (the whole verify fails), and so is a run whose
// json files hold no entry at all (nothing to verify: InvalidInput); problems with tensor files are
// issues. Progress: ("tensor files", checked, in all), after each file.
Result<VerifyReport> RunVerify(const VerifyOptions& options, const JobContext& context = {});

// The sum of a tensor's positive values and the sum of the magnitudes of its negative ones, in double
// (complex: of the modulus, so `negative` is 0). Bounds the partial sums of any summation order.
struct SignedSums {
  double positive = 0, negative = 0;
};
Result<SignedSums> ComputeSignedSums(const TensorSource& source);
using SignedSumsFn = std::function<Result<SignedSums>()>;

// Checks one record against the statistics of its file; appends what disagrees to `issues`.
// A recorded non-finite Mean or Norm is consistent when the reduction in msprobe's dtype could have
// overflowed (docs/formats.md §1.4, "Overflow"). For a tensor with values of both signs that needs the
// signed sums: `signed_sums` is called for them only then; without it the exact sum stands in for the
// positive (or negative) one, which can only refuse more. Exposed for tests.
void CheckRecord(const TensorRecord& record, const TensorInfo& file_info, const TensorStats& stats,
                 const std::string& file, std::vector<VerifyIssue>* issues, const SignedSumsFn& signed_sums = {});

}  // namespace msprobe
