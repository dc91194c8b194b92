#include "msprobe/compare/output/not_compared.h"

#include <fmt/format.h>

#include "msprobe/compare/output/row_place.h"

namespace msprobe::compare {

std::string NotComparedCounts(std::span<const PairResult> pairs) {
  uint64_t target = 0, golden = 0, unreadable = 0;
  std::string first_target, first_golden, first_unreadable;
  for (const PairResult& pair : pairs) {
    target += pair.unmatched.target;
    golden += pair.unmatched.golden;
    unreadable += pair.unreadable_tensors;
    if (first_target.empty() && pair.unmatched.first_target) {
      const RowRef& ref = *pair.unmatched.first_target;
      first_target = ref.target_name + ", " + RowPlaceText(LocateRow(pair, ref.row));
    }
    if (first_golden.empty()) first_golden = pair.unmatched.first_golden;
    if (first_unreadable.empty()) first_unreadable = pair.first_unreadable;
  }
  const auto first = [](const std::string& text) { return text.empty() ? std::string() : " (first: " + text + ")"; };
  return fmt::format("{} target row(s) without a golden counterpart{}, {} golden row(s) matched by no target row{}, "
                     "{} unreadable tensor(s){}",
                     target, first(first_target), golden, first(first_golden), unreadable, first(first_unreadable));
}

std::optional<std::string> FirstNotCompared(std::span<const PairResult> pairs) {
  for (const PairResult& pair : pairs) {
    if (!pair.skipped_reason.empty() && pair.NotCompared() > 0) return pair.label + ": " + pair.skipped_reason;
    if (pair.unmatched.first_target) {
      const RowRef& ref = *pair.unmatched.first_target;
      return fmt::format("{}: {}: no golden counterpart", RowPlaceText(LocateRow(pair, ref.row)), ref.target_name);
    }
    if (pair.unmatched.target > 0) return fmt::format("{}: a target row -fm's queue never reached", pair.target_json);
    if (pair.unmatched.golden > 0) {
      return fmt::format("{}: {}: matched by no target row", pair.golden_json, pair.unmatched.first_golden);
    }
    if (pair.unreadable_tensors > 0) return pair.first_unreadable;
  }
  return std::nullopt;
}

std::string SkippedInputsText(const std::vector<std::string>& skipped) {
  return fmt::format("{} input(s) not compared; first: {}", skipped.size(),
                     skipped.empty() ? std::string() : skipped.front());
}

std::string NothingComparedText(const PairResult& pair) {
  if (!pair.skipped_reason.empty()) return pair.label + ": " + pair.skipped_reason;
  // Every target row is matched or not; a kernel table also holds the golden-only rows.
  const uint64_t target_rows = pair.matched_rows + pair.unmatched.target;
  if (target_rows == 0 || pair.golden_rows == 0) {
    return fmt::format("{}: the {} has no rows ({} {} rows): nothing compared", pair.label,
                       target_rows == 0 ? "target" : "golden", target_rows == 0 ? pair.golden_rows : target_rows,
                       target_rows == 0 ? "golden" : "target");
  }
  std::string hint;
  if (!pair.target_level.empty() && !pair.golden_level.empty() && pair.target_level != pair.golden_level) {
    hint = fmt::format("the target is level {} and the golden {}: dump both at the same level", pair.target_level,
                       pair.golden_level);
  } else if (!pair.target_level.empty() && pair.target_level == pair.golden_level) {
    hint = "dumps of different models?";
  } else {
    hint = "an L0 dump against an L1 dump, or dumps of different models?";
  }
  return fmt::format("{}: no target row matched a golden row ({} target rows, {} golden rows): {}", pair.label,
                     target_rows, pair.golden_rows, hint);
}

}  // namespace msprobe::compare
