#include "common/stderr_report.h"

#include <cstdio>

namespace msprobe::cli {

void WriteStderr(std::string_view text) noexcept { static_cast<void>(std::fwrite(text.data(), 1, text.size(), stderr)); }

}  // namespace msprobe::cli
