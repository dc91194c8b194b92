// msprobe's trend database (docs/trend.md §3): its tables, created with the very text msprobe's
// CREATE TABLE statements leave in sqlite_master (indentation, and the foreign key that names a
// table "monitoring_target" that does not exist, included), and the names of its metrics and statistics.
#pragma once

#include <array>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace msprobe::compare::internal {

// The four tables every trend database begins with: targets, metrics, tags, tag-target mapping.
extern const std::array<std::string_view, 4> kTrendBaseTables;

// trend_data with one REAL column per statistic, in the order given.
std::string TrendDataTable(std::span<const std::string_view> stats);

// global_stats: its columns in order, each INTEGER DEFAULT 0 (the step and rank bounds) or TEXT
// DEFAULT NULL (a metric's statistics, "norm,max,min,mean").
struct GlobalStatsColumn {
  std::string name;
  bool integer;
};
std::string GlobalStatsTable(const std::vector<GlobalStatsColumn>& columns);

// A dump's metrics, with ids 1..4 in this order, and the statistics kept of each tensor.
inline constexpr std::array<std::string_view, 4> kDumpMetrics = {"forward", "backward", "recompute", "parameters_grad"};
inline constexpr std::array<std::string_view, 4> kDumpStats = {"norm", "max", "min", "mean"};
// A monitor's (TrainerMon's csv files): the metrics it may hold and the statistic columns read, in
// the order they become ids and columns.
inline constexpr std::array<std::string_view, 9> kMonitorMetrics = {
    "actv", "actv_grad", "exp_avg", "exp_avg_sq", "grad_unreduced", "grad_reduced", "param_origin", "param_updated",
    "other"};
inline constexpr std::array<std::string_view, 14> kMonitorStats = {
    "norm", "min", "max", "zeros", "nans", "mean", "entropy", "softmax_max", "sr", "kernel_norm", "std_x", "jacobian",
    "proxy", "token_similarity"};

// The output files in the --db directory.
inline constexpr std::string_view kDumpDbName = "dump_data.trend.db";
inline constexpr std::string_view kMonitorDbName = "monitor_data.trend.db";

}  // namespace msprobe::compare::internal
