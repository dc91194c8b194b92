// msprobe: msprobe's own command line over this toolkit's programs, so a script written for msprobe
// runs by changing PATH alone. It reads only what comes before the subcommand (msprobe's
// -f/--framework, accepted and ignored: our compare reads the framework from dump.json), then execv()s
// the program beside its own executable with the remaining arguments unchanged:
//   msprobe compare …       → msprobe-compare …
//   msprobe merge_result …  → msprobe-merge …
//   msprobe parse …         → msprobe-convert … (the same -d/-t/-o flags; -t defaults to pt, as msprobe's)
//   msprobe overflow_check … → msprobe-dump overflow-check … (the same -i/-o flags)
//   msprobe data2db …       → msprobe-dump data2db … (the same --db/--data/--format/--mapping/--micro_step)
// msprobe's online tools (run_ut, …) need a device and Python and are refused with exit code 2.
#include <fmt/format.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "common/app_options.h"
#include "common/exit_codes.h"
#include "common/stderr_report.h"

namespace {

constexpr std::string_view kProgram = "msprobe";

struct Route {
  std::string_view subcommand;
  std::string_view program;
  std::string_view program_subcommand = {};  // what the program is told first, if anything
};
constexpr std::array kRoutes = {
    Route{"compare", "msprobe-compare"},
    Route{"merge_result", "msprobe-merge"},
    Route{"parse", "msprobe-convert"},
    Route{"overflow_check", "msprobe-dump", "overflow-check"},
    Route{"data2db", "msprobe-dump", "data2db"},
};

// msprobe's subcommands (every release's msprobe.py, atat before it) that run on a device or need
// Python and a framework: not part of this toolkit.
constexpr std::array<std::string_view, 13> kOnlineTools = {
    "run_ut",      "multi_run_ut", "api_precision_compare", "run_overflow_check", "benchmark_compare",
    "grad_probe",  "graph",        "graph_visualize",       "code_mapping",       "op_generate",
    "config_check", "nan_analyze", "acc_check",
};

constexpr const char* kUsage =
    "Usage: msprobe [-f pytorch|mindspore] {compare|merge_result|parse|overflow_check|data2db} [ARGS...]\n";

constexpr const char* kHelp = R"(msprobe's command line over msprobe-cpp: scripts written for msprobe run unchanged with this
toolkit first on PATH. Each subcommand runs the toolkit program beside this one with the same arguments:

  compare       msprobe-compare   compare a target (NPU) dump with a golden (bench) dump
  merge_result  msprobe-merge     merge per-rank compare results into one workbook
  parse         msprobe-convert   convert kernel .bin dumps: -d PATH [-t npy|pt] [-o OUT]
                                  (-t defaults to pt, as in msprobe)
  overflow_check  msprobe-dump   the op that first overflows, across the ranks of one dump:
                overflow-check   -i STEP_DIR [-o OUT] (anomaly_analyze_{ns}.json)
  data2db       msprobe-dump      msprobe's trend database of every step, rank and module's
                data2db           statistics: --db DIR --data DUMP_ROOT [--format auto|dump|monitor]
                                  [--mapping MAP.json] [--micro_step true|false]

Options before the subcommand:
  -f, --framework pytorch|mindspore   msprobe's older form; accepted and ignored (compare reads the
                                      framework from dump.json)
  -h, --help                          this text
  --version                           the version

msprobe's online tools (run_ut, multi_run_ut, api_precision_compare, run_overflow_check, graph,
config_check, ...) need a device and Python and are not part of this toolkit.
Run 'msprobe SUBCOMMAND --help' for a subcommand's options.

Examples:
  msprobe compare -tp npu/dump.json -gp bench/dump.json -o out
  msprobe -f pytorch compare -tp npu/dump.json -gp bench/dump.json -o out
  msprobe merge_result -i compare_results/ -o merged/ -config config.yaml
  msprobe parse -d dump/rank0/ -t npy -o out
  msprobe overflow_check -i dump/step0 -o out
  msprobe data2db --db trend --data dump

Exit codes: those of the program run; 2 usage error (unknown subcommand, bad -f), 4 the program to
run is missing.)";

int UsageError(const std::string& message) { return msprobe::cli::ReportUsageError(kProgram, message); }

// The directory of the running executable (/proc/self/exe), empty when it cannot be read.
std::filesystem::path OwnDirectory() {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path() : self.parent_path();
}

}  // namespace

int main(int argc, char** argv) {
  int i = 1;
  // msprobe's leading options: -f/--framework (and --help, --version).
  for (; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      fmt::print("{}{}\n", kUsage, kHelp);
      return msprobe::cli::kExitOk;
    }
    if (arg == "--version") {
      fmt::print("{}\n", msprobe::cli::VersionText(kProgram));
      return msprobe::cli::kExitOk;
    }
    std::string_view value;
    if (arg == "-f" || arg == "--framework") {
      if (i + 1 >= argc) return UsageError(fmt::format("{} needs a value: pytorch or mindspore", arg));
      value = argv[++i];
    } else if (arg.starts_with("--framework=")) {
      value = arg.substr(std::strlen("--framework="));
    } else if (arg.starts_with("-f=")) {
      value = arg.substr(3);
    } else if (arg.starts_with("-")) {
      return UsageError(fmt::format("unknown option '{}' before the subcommand", arg));
    } else {
      break;
    }
    if (value != "pytorch" && value != "mindspore") {
      return UsageError(fmt::format("-f/--framework must be pytorch or mindspore, not '{}'", value));
    }
  }
  if (i >= argc) {
    return UsageError("a subcommand is required: compare, merge_result, parse, overflow_check or data2db");
  }

  const std::string_view subcommand = argv[i];
  const Route* route = nullptr;
  for (const Route& r : kRoutes) {
    if (r.subcommand == subcommand) route = &r;
  }
  if (route == nullptr) {
    for (std::string_view tool : kOnlineTools) {
      if (tool == subcommand) {
        msprobe::cli::PrintErr(
            "{}: error: '{}' is one of msprobe's online tools, not part of this toolkit (it needs a device "
            "and Python); this toolkit offers: compare, merge_result, parse, overflow_check, data2db\n",
            kProgram, subcommand);
        return msprobe::cli::kExitUsage;
      }
    }
    return UsageError(
        fmt::format("'{}' is not a msprobe subcommand; this toolkit offers: compare, merge_result, parse, "
                    "overflow_check, data2db",
                    subcommand));
  }

  const std::string program(route->program);
  std::vector<std::string> args{program};
  if (!route->program_subcommand.empty()) args.emplace_back(route->program_subcommand);
  for (int k = i + 1; k < argc; ++k) args.emplace_back(argv[k]);
  // msprobe parse writes .pt unless told otherwise (and its --help says so); msprobe-convert's default is npy.
  if (subcommand == "parse") args.insert(args.begin() + 1, std::string(msprobe::cli::kAsMsprobeParse));

  const std::filesystem::path dir = OwnDirectory();
  if (dir.empty()) {
    msprobe::cli::PrintErr("{}: error: cannot find its own executable (/proc/self/exe) to locate {}\n", kProgram, program);
    return msprobe::cli::kExitInternal;
  }
  const std::string target = (dir / program).string();
  std::vector<char*> exec_argv;
  for (std::string& a : args) exec_argv.push_back(a.data());
  exec_argv.push_back(nullptr);
  ::execv(target.c_str(), exec_argv.data());
  msprobe::cli::PrintErr("{}: error: cannot run {}: {}\n", kProgram, target, std::strerror(errno));
  return msprobe::cli::kExitInternal;
}
