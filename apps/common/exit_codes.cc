#include "common/exit_codes.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <new>
#include <string>
#include <system_error>

#include "common/stderr_report.h"

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
  cli::PrintErr("{}: error: {}\n", program, line);
  return ExitCodeFor(status);
}

int ReportUsageError(std::string_view program, std::string_view message) {
  std::string line(message);
  while (!line.empty() && line.back() == '\n') line.pop_back();
  for (size_t at = line.find('\n'); at != std::string::npos; at = line.find('\n', at + 2)) line.replace(at, 1, "; ");
  cli::PrintErr("{}: error: {}; run {} --help for usage\n", program, line, program);
  return kExitUsage;
}

namespace {

int RunGuarded(std::string_view program, const std::function<int()>& body) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    PrintErr("{}: error: out of memory\n", program);
  } catch (const std::filesystem::filesystem_error& e) {  // a path the program should have checked
    PrintErr("{}: error: internal error: {}\n", program, e.what());
  } catch (const std::system_error& e) {  // the system refused (a write to a full disk, a thread), not a bug
    PrintErr("{}: error: {}\n", program, e.what());
    return kExitInput;
  } catch (const std::exception& e) {
    PrintErr("{}: error: internal error: {}\n", program, e.what());
  } catch (...) {
    PrintErr("{}: error: internal error\n", program);
  }
  return kExitInternal;
}

}  // namespace

int GuardedMain(std::string_view program, const std::function<int()>& body) {
  const int code = RunGuarded(program, body);
  // What the program printed on stdout (--json, a table, a path) and the system did not take is output
  // lost: the job is not done. stdio reports it only when its buffer is flushed.
  errno = 0;
  if (std::fflush(stdout) == 0 && !std::ferror(stdout)) return code;
  PrintErr("{}: error: standard output: cannot write{}{}: is it a full disk or a closed pipe?\n", program,
           errno != 0 ? ": " : "", errno != 0 ? std::strerror(errno) : "");
  return code == kExitOk ? kExitInput : code;
}

}  // namespace msprobe::cli
