// libFuzzer target: the Result text parser on arbitrary bytes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string_view>

#include "msprobe/compare/table/verdict_kind.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::optional<msprobe::compare::Verdict> verdict = msprobe::compare::ParseVerdict(text);
  // Only the exact names parse, and they name what they parsed to.
  if (verdict && msprobe::compare::VerdictName(*verdict) != text) std::abort();
  return 0;
}
