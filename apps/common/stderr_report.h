// Our reports on stderr: errors, warnings, summaries, the progress bar. fmt's print to a FILE throws
// when the write fails, which from an error path ended in std::terminate; here a report that cannot
// be written (stderr closed, or full) is dropped, and the exit code still tells how the job ended.
#pragma once

#include <fmt/format.h>

#include <string_view>
#include <utility>

namespace msprobe::cli {

// Writes `text` to stderr as it is; a failed write is ignored.
void WriteStderr(std::string_view text) noexcept;

template <typename... T>
void PrintErr(fmt::format_string<T...> format, T&&... args) {
  WriteStderr(fmt::format(format, std::forward<T>(args)...));
}

}  // namespace msprobe::cli
