// Exit codes shared by every program (README, "Exit codes") and the one-line error report.
#pragma once

#include <functional>
#include <string_view>

#include "msprobe/dump/util/status.h"

namespace msprobe::cli {

enum ExitCode : int {
  kExitOk = 0,
  kExitGateFailed = 1,  // the job ran and a gate failed (verify found mismatches, --fail-on)
  kExitUsage = 2,
  kExitInput = 3,       // missing, malformed or unsupported input
  kExitInternal = 4,
};

int ExitCodeFor(const Status& status);
// Prints "<program>: error: <source>: <message>" on stderr when `status` failed; returns its exit code.
int ReportAndExit(std::string_view program, const Status& status);
// Prints "<program>: error: <message>; run <program> --help for usage" as one line (a message's own
// line breaks become "; "); returns kExitUsage.
int ReportUsageError(std::string_view program, std::string_view message);
// Runs `body`, turning any escaping exception into one stderr line and an exit code: a system error (a
// failed write, a thread not started) 3, anything else an internal error, 4. Output that stdout did not
// take fails the run (3) too.
int GuardedMain(std::string_view program, const std::function<int()>& body);

}  // namespace msprobe::cli
