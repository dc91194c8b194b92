// The subcommands of msprobe-dump; each returns the program's exit code.
#pragma once

#include <cstdint>
#include <optional>
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

// msprobe-dump statistic DIR: writes statistic.csv into each npy kernel dump directory under DIR.
struct StatisticArgs {
  std::string dir;
  bool force = false;  // replace an existing statistic.csv
};
int RunStatistic(const StatisticArgs& args, const cli::CommonOptions& common);

// msprobe-dump run [options] -- CMD ARGS…: runs CMD under the capture shim; returns CMD's exit code.
struct RunArgs {
  std::string dir = "msprobe_capture";
  std::string mode = "tensor";
  std::string ops;
  std::string ranks;
  std::string shim;  // empty: next to the executable
  std::vector<std::string> command;
};
int RunCapture(const RunArgs& args, const cli::CommonOptions& common);

// msprobe-dump recompute DUMP -o OUT: each forward API call recomputed in float64 from its own dumped
// inputs; exit 1 when a call exceeds its tolerance.
struct RecomputeArgs {
  std::string path;
  std::string output_dir = "./output";
  bool html = false;
};
int RunRecomputeCommand(const RecomputeArgs& args, const cli::CommonOptions& common);

// msprobe-dump overflow-check -i STEP_DIR [-o OUT] (msprobe overflow_check): the first op whose output
// overflows from clean inputs, across the ranks; anomaly_analyze_{ns}.json when one is found.
struct OverflowCheckArgs {
  std::string input_dir;
  std::string output_dir = "./output";
};
int RunOverflowCheckCommand(const OverflowCheckArgs& args, const cli::CommonOptions& common);

// msprobe-dump data2db --db DIR --data ROOT (msprobe data2db): the trend database of a dump root or
// monitor output, and with --html its trend page.
struct Data2DbArgs {
  std::string db;
  std::string data;
  std::string format = "auto";
  std::string mapping;
  std::string micro_step = "true";  // msprobe's choices: true, false, True, False
  int process_num = 1;              // msprobe's; checked, not needed (one pass, one database writer)
  bool html = false;
};
int RunData2Db(const Data2DbArgs& args, const cli::CommonOptions& common);

// msprobe-dump trend DB_OR_DIR [-o PAGE]: the trend page of a trend database.
struct TrendArgs {
  std::string input;
  std::string output;
  std::optional<int64_t> first_step, last_step;
  std::vector<int64_t> ranks;
  uint64_t max_rows = 2'000'000;
};
int RunTrendPage(const TrendArgs& args, const cli::CommonOptions& common);

// msprobe-dump consistency DUMP -o OUT: the ranks of a step (or of every step of a dump root) checked
// against each other, no golden run; exit 1 when an inconsistency is found.
struct ConsistencyArgs {
  std::string input;
  std::string output_dir = "./output";
  std::string data_parallel = "auto";
  bool grads_reduced = false;
  double z_threshold = 3.5;
  bool recompute_stats = false;
  std::string fail_on = "inconsistency";  // or "suspect"
  bool html = false;
};
// argc, argv: main's, for an MPI launcher's world (docs/distributed.md §9), joined by this subcommand only.
int RunConsistencyCommand(const ConsistencyArgs& args, const cli::CommonOptions& common, int* argc, char*** argv);

}  // namespace msprobe::dump_app
