#include "common/exit_codes.h"

#include <fmt/format.h>

#include <cstdio>
#include <exception>
#include <new>

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
  if (!status.ok()) fmt::print(stderr, "{}: error: {}\n", program, status.ToString());
  return ExitCodeFor(status);
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
