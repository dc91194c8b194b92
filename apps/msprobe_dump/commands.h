// The subcommands of msprobe-dump; each returns the program's exit code.
#pragma once

#include <string>
#include <vector>

#include "common/app_options.h"

namespace msprobe::dump_app {

struct StatsArgs {
  std::vector<std::string> files;
  bool json = false;
  bool no_crc = false;
};
int RunStats(const StatsArgs& args, const cli::CommonOptions& common);

struct VerifyArgs {
  std::string path;
  bool json = false;
};
int RunVerify(const VerifyArgs& args, const cli::CommonOptions& common);

}  // namespace msprobe::dump_app
