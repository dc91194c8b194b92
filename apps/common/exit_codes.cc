#include "common/exit_codes.h"

#include <fmt/format.h>

#include <cstdio>
#include <exception>
#include <new>
#include <string>

namespace msprobe::cli {

int ExitCodeFor(const Status& status) {
  switch (status.code()) {
    case Code::kOk: return kExitOk;
    case Code::kInvalidInput:
    case Code::kNotFound:
    case Code::kIOError:
    case Code::kUnsupported: return kExitInput;
    case Code::kInternal: return kExitInternal;
  }
  return kExitInternal;
}

int ReportAndExit(std::string_view program, const Status& status) {
  if (status.ok()) return kExitOk;
  // One line a terminal or a log shows whole: a NUL (from an escaped "\u0000" in an input) as \0.
  std::string line = status.ToString();
  for (size_t at = line.find('\0'); at != std::string::npos; at = line.find('\0', at + 2)) line.replace(at, 1, "\\0");
  fmt::print(stderr, "{}: error: {}\n", program, line);
  return ExitCodeFor(status);
}

int ReportUsageError(std::string_view program, std::string_view message) {
  std::string line(message);
  while (!line.empty() && line.back() == '\n') line.pop_back();
  for (size_t at = line.find('\n'); at != std::string::npos; at = line.find('\n', at + 2)) line.replace(at, 1, "; ");
  fmt::print(stderr, "{}: error: {}; run {} --help for usage\n", program, line, program);
  return kExitUsage;
}

int GuardedMain(std::string_view program, const std::function<int()>& body) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    fmt::print(stderr, "{}: error: out of memory\n", program);
  } catch (const std::exception& e) {
    fmt::print(stderr, "{}: error: internal error: {}\n", program, e.what());
  } catch (...) {
    fmt::print(stderr, "{}: error: internal error\n", program);
  }
  return kExitInternal;
}

}  // namespace msprobe::cli
