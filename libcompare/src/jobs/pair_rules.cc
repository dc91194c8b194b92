#include "jobs/pair_rules_internal.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "msprobe/dump/framework/dump_json.h"

namespace msprobe::compare::internal {
namespace {

bool IsMindSpore(const std::string& framework) { return framework == "mindspore" || framework == "mindtorch"; }

}  // namespace

// docs/compare.md §1.2: pytorch vs pytorch, or a MindSpore target against MindSpore or PyTorch.
Status CheckFrameworks(const FlatDump& target, const FlatDump& golden, const CompareOptions& options) {
  const bool ok = (target.framework == "pytorch" && golden.framework == "pytorch") ||
                  (IsMindSpore(target.framework) && (golden.framework == "pytorch" || golden.framework == "mindspore"));
  if (!ok) {
    return Status::InvalidInput(target.json_path, fmt::format("cannot compare a {} dump with a {} dump ({})",
                                                              target.framework, golden.framework, golden.json_path));
  }
  if (options.layer_mapping && target.framework == "pytorch") {
    return Status::InvalidInput(target.json_path,
                                "-lm maps a MindSpore model's layers to PyTorch ones; this target is a PyTorch dump");
  }
  if ((options.api_mapping || options.cell_mapping) && target.framework == "pytorch") {
    return Status::InvalidInput(target.json_path,
                                "-am/-cm map MindSpore names to PyTorch ones; this target is a PyTorch dump");
  }
  if (target.task != golden.task) {
    return Status::InvalidInput(target.json_path, fmt::format("task \"{}\" differs from the golden dump's \"{}\" ({})",
                                                              target.task, golden.task, golden.json_path));
  }
  if (target.mode != golden.mode) {
    return Status::InvalidInput(target.json_path,
                                "one dump has md5 summaries and the other has not (" + golden.json_path + ")");
  }
  return Status::Ok();
}

bool CrossFramework(const FlatDump& target, const FlatDump& golden) {
  return IsMindSpore(target.framework) && golden.framework == "pytorch";
}

CompareMode ComparedMode(const CompareOptions& options, CompareMode mode) {
  return options.diff_analyze && mode == CompareMode::kTensor ? CompareMode::kSummary : mode;
}

// The rows match on their own keys (no -fm queue, no -am/-cm/-dm/-lm mapping, nor --align, which look
// at all rows at once), and the golden dump says, before its data, that it holds statistics (or -da compares it
// as such).
bool MayStream(const CompareOptions& options, const ComparePairSpec& spec) {
  if (options.stream_batch_rows == 0 || options.fuzzy_match || !options.data_mapping.empty() || options.cell_mapping ||
      options.api_mapping || options.layer_mapping || options.align ||
      options.consistent != ConsistentBackend::kNone) {
    return false;
  }
  const std::optional<DumpJsonHeader> golden = HeaderBeforeData(spec.golden_json);
  return golden && (golden->task == "statistics" || (options.diff_analyze && golden->task == "tensor"));
}

// Memory holds three batches of target rows besides the golden ones (one being read, one waiting,
// one compared and written), so a fixed 16,384 rows made about a quarter of the peak of a pair of
// 15 MB dumps (48,000 rows a side), and a sixteenth of the golden rows (4,096 at least) a seventh.
// Below a sixty-fourth, or 1,024 rows, each batch's fixed work (its tasks, its csv blocks) slowed
// both that pair and one of 147 MB (docs/compare.md §6.1).
size_t StreamBatchRows(const CompareOptions& options, size_t golden_rows) {
  constexpr size_t kFewestRows = 1024;
  return std::min(options.stream_batch_rows, std::max(kFewestRows, golden_rows / 64));
}

}  // namespace msprobe::compare::internal
