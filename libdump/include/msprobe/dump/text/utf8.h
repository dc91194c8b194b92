// UTF-8 as Python's strict decoder accepts it: no overlong forms, no encoded surrogates, nothing past
// U+10FFFF, no truncated or stray sequences. msprobe reads every file as UTF-8 text, so bytes Python
// would refuse are refused here too, before they reach an output that other programs must parse.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace msprobe {

// The offset of the first byte that does not start a valid sequence; nullopt when all of `text` is
// valid UTF-8. Runs of ASCII are checked eight bytes at a time.
std::optional<size_t> FindInvalidUtf8(std::string_view text);

// Appends the UTF-8 encoding of code point `cp` (at most U+10FFFF; surrogates are the caller's to
// refuse or replace).
void AppendUtf8(uint32_t cp, std::string* out);

}  // namespace msprobe
