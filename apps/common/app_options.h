// Options every program takes (README, "Exit codes"): -q/--quiet, -j/--threads, --version; and the
// CLI11 parse step that maps parse errors to exit code 2 while --help/--version exit 0.
#pragma once

#include <CLI/CLI.hpp>
#include <tbb/global_control.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace msprobe::cli {

// `msprobe parse` runs msprobe-convert with this as its first argument: it writes .pt by default
// (msprobe parse's default), and its --help shows that default.
inline constexpr std::string_view kAsMsprobeParse = "--as-msprobe-parse";

struct CommonOptions {
  bool quiet = false;
  int threads = 0;  // 0: all cores
};

// The --version text every program prints: "<program> (msprobe-cpp) <version>", the git revision and
// the msprobe file formats followed.
std::string VersionText(std::string_view program);

// Adds -q/--quiet, -j/--threads and --version to `app`.
void AddCommonOptions(CLI::App& app, CommonOptions* options);
// Parses; returns an exit code when the program should stop now (help, version, usage error).
std::optional<int> Parse(CLI::App& app, int argc, char** argv);
// Caps TBB's worker threads at options.threads for the lifetime of the returned object.
std::unique_ptr<tbb::global_control> ApplyThreads(const CommonOptions& options);

}  // namespace msprobe::cli
