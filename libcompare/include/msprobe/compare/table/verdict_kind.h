// A row's G3 Result (docs/compare.md §5.1): msprobe's three levels, ordered as its checkers raise them,
// so a worse verdict compares greater (error > warning > pass).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace msprobe::compare {

enum class Verdict : uint8_t { kPass, kWarning, kError };

// The Result column's text: "pass", "warning" or "error".
std::string_view VerdictName(Verdict verdict);
// The verdict VerdictName spells `text` as, or nullopt for any other text.
std::optional<Verdict> ParseVerdict(std::string_view text);

}  // namespace msprobe::compare
