#include "msprobe/compare/table/verdict_kind.h"

#include <array>

namespace msprobe::compare {
namespace {

constexpr std::array<std::string_view, 3> kNames = {"pass", "warning", "error"};  // in Verdict order

}  // namespace

std::string_view VerdictName(Verdict verdict) { return kNames[static_cast<size_t>(verdict)]; }

std::optional<Verdict> ParseVerdict(std::string_view text) {
  for (size_t i = 0; i < kNames.size(); ++i) {
    if (kNames[i] == text) return static_cast<Verdict>(i);
  }
  return std::nullopt;
}

}  // namespace msprobe::compare
