#include "trend/monitor_import_internal.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <tuple>
#include <unordered_map>

#include "msprobe/dump/io/mapped_file.h"
#include "msprobe/dump/text/python_format.h"
#include "trend/monitor_csv_internal.h"
#include "trend/monitor_layout_internal.h"
#include "trend/trend_db_internal.h"
#include "trend/trend_tags_internal.h"

namespace msprobe::compare::internal {
namespace {

namespace fs = std::filesystem;

using TargetKey = std::tuple<std::string, int64_t, int64_t>;  // name, vpp_stage, micro_step
struct TargetKeyHash {
  size_t operator()(const TargetKey& k) const {
    return std::hash<std::string>()(std::get<0>(k)) ^ (std::hash<int64_t>()(std::get<1>(k)) * 31) ^
           (std::hash<int64_t>()(std::get<2>(k)) * 1000003);
  }
};

// What the first pass learns.
struct MonitorScan {
  std::array<std::vector<TargetKey>, kMonitorMetrics.size()> targets;  // per metric, in the order met
  std::array<std::unordered_map<TargetKey, size_t, TargetKeyHash>, kMonitorMetrics.size()> seen;
  std::vector<size_t> metric_files;   // metrics in the order their first file came
  std::vector<size_t> metric_targets;  // metrics in the order their first target came
  std::array<uint32_t, kMonitorMetrics.size()> stats{};  // per metric, kMonitorStats bits of its files
  std::map<int64_t, int64_t> micro_counts;  // step -> micro steps in it (--micro_step true)
  std::optional<int64_t> min_step;
  int64_t max_step = 0;  // msprobe's starts at 0 (--micro_step false)
  int64_t max_rank = 0;
};

std::string MappedName(std::string_view name, const NameMapping& mapping) {
  std::string out(name);
  for (const auto& [from, to] : mapping) out = PythonReplace(out, from, to);
  return out;
}

// Reads one csv, telling `ctx.warn` of rows passed over.
Status ReadMonitorFile(const std::string& path, const JobContext& ctx, const MonitorRowVisitor& visit, uint32_t* stats) {
  MSP_ASSIGN_OR_RETURN(std::shared_ptr<MappedFile> file, MappedFile::Open(path));
  MSP_ASSIGN_OR_RETURN(MappedRegion all, file->MapAll());
  MSP_ASSIGN_OR_RETURN(const MonitorCsvSummary summary, ReadMonitorCsv(all.bytes(), path, visit));
  MSP_RETURN_IF_ERROR(all.Intact());
  if (summary.skipped > 0 && ctx.warn) {
    ctx.warn(path, fmt::format("{} row(s) without a readable name, vpp_stage, step or micro_step; passed over",
                               summary.skipped));
  }
  if (stats != nullptr) *stats = summary.stat_columns;
  return Status::Ok();
}

Result<MonitorScan> ScanFiles(const std::vector<MonitorRankDir>& ranks, const Data2DbOptions& options,
                              const NameMapping& mapping, const JobContext& ctx, uint64_t* done, uint64_t total) {
  MonitorScan scan;
  for (const MonitorRankDir& rank : ranks) {
    scan.max_rank = std::max(scan.max_rank, rank.rank);
    for (const MonitorFile& file : rank.files) {
      uint32_t stats = 0;
      MSP_RETURN_IF_ERROR(ReadMonitorFile(file.path, ctx, [&](const MonitorCsvRow& row) {
        int64_t micro = row.micro_step;
        if (options.micro_step) {
          int64_t& count = scan.micro_counts[row.step];
          count = std::max(count, row.micro_step + 1);
          micro = 0;
        } else {
          scan.min_step = std::min(scan.min_step.value_or(row.step), row.step);
          scan.max_step = std::max(scan.max_step, row.step);
        }
        TargetKey key{MappedName(row.name, mapping), row.vpp_stage, micro};
        if (scan.targets[file.metric].empty()) scan.metric_targets.push_back(file.metric);
        if (scan.seen[file.metric].emplace(key, scan.targets[file.metric].size()).second) {
          scan.targets[file.metric].push_back(std::move(key));
        }
        return Status::Ok();
      }, &stats));
      if (std::find(scan.metric_files.begin(), scan.metric_files.end(), file.metric) == scan.metric_files.end()) {
        scan.metric_files.push_back(file.metric);
      }
      scan.stats[file.metric] |= stats;
      if (ctx.progress) ctx.progress(file.path, ++*done, total);
    }
  }
  return scan;
}

std::string StatNames(uint32_t bits) {
  std::string out;
  for (size_t i = 0; i < kMonitorStats.size(); ++i) {
    if ((bits >> i & 1) == 0) continue;
    if (!out.empty()) out += ',';
    out += kMonitorStats[i];
  }
  return out;
}

// The tables from the first pass: targets metric by metric, the metrics, global_stats, trend_data,
// the tags. Returns the ids of the targets and of the metrics (0 where none).
struct MonitorIds {
  std::unordered_map<TargetKey, int64_t, TargetKeyHash> targets;
  std::array<int64_t, kMonitorMetrics.size()> metrics{};
  std::vector<size_t> columns;  // kMonitorStats indices of trend_data's statistic columns
};

Result<MonitorIds> WriteTables(TrendDb& db, const MonitorScan& scan, TrendDbSummary* summary) {
  MonitorIds ids;
  for (size_t m = 0; m < kMonitorMetrics.size(); ++m) {
    for (const TargetKey& key : scan.targets[m]) {
      MSP_ASSIGN_OR_RETURN(const std::optional<int64_t> id, db.InsertTarget(std::get<0>(key), std::get<1>(key), std::get<2>(key)));
      if (id) ids.targets.emplace(key, *id);
    }
  }
  for (size_t m = 0; m < kMonitorMetrics.size(); ++m) {
    if (!scan.targets[m].empty()) {
      MSP_ASSIGN_OR_RETURN(ids.metrics[m], db.AddMetric(kMonitorMetrics[m]));
    }
  }
  std::vector<GlobalStatsColumn> columns = {{"min_step", true}, {"max_step", true}, {"max_rank", true}};
  std::vector<std::string> texts;
  uint32_t all_stats = 0;
  for (const size_t m : scan.metric_files) {
    columns.push_back({std::string(kMonitorMetrics[m]), false});
    texts.push_back(StatNames(scan.stats[m]));
    all_stats |= scan.stats[m];
  }
  const std::array<int64_t, 3> bounds = {summary->min_step, summary->max_step, summary->max_rank};
  MSP_RETURN_IF_ERROR(db.CreateGlobalStats(columns, bounds, texts));
  std::vector<std::string_view> stat_columns;
  for (size_t i = 0; i < kMonitorStats.size(); ++i) {
    if ((all_stats >> i & 1) == 0) continue;
    ids.columns.push_back(i);
    stat_columns.push_back(kMonitorStats[i]);
  }
  MSP_RETURN_IF_ERROR(db.CreateTrendData(stat_columns));
  for (const size_t m : scan.metric_targets) {
    std::map<std::pair<std::string, std::string_view>, int64_t> tag_ids;
    for (const TargetKey& key : scan.targets[m]) {
      for (const TrendTag& tag : MonitorTargetTags(std::get<0>(key))) {
        auto [it, fresh] = tag_ids.try_emplace({tag.name, tag.category}, 0);
        if (fresh) {
          MSP_ASSIGN_OR_RETURN(it->second, db.InsertTag(tag.name, tag.category, ids.metrics[m]));
        }
        MSP_RETURN_IF_ERROR(db.InsertMapping(it->second, ids.targets.at(key)));
      }
    }
  }
  return ids;
}

}  // namespace

Result<std::optional<TrendDbSummary>> ImportMonitorRoot(const Data2DbOptions& options, const NameMapping& mapping,
                                                         const JobContext& ctx) {
  MSP_ASSIGN_OR_RETURN(const std::vector<MonitorRankDir> ranks, ScanMonitorRoot(options.data_dir));
  if (ranks.empty()) return std::optional<TrendDbSummary>();
  uint64_t total = 0, done = 0;
  for (const MonitorRankDir& rank : ranks) total += 2 * rank.files.size();
  MSP_ASSIGN_OR_RETURN(const MonitorScan scan, ScanFiles(ranks, options, mapping, ctx, &done, total));

  TrendDbSummary summary;
  summary.max_rank = scan.max_rank;
  std::map<int64_t, int64_t> first_step;  // step -> the global step of its first micro step
  if (options.micro_step) {
    for (const auto& [step, count] : scan.micro_counts) {
      first_step[step] = summary.max_step;
      summary.max_step += count;
    }
    summary.max_step = std::max<int64_t>(summary.max_step - 1, 0);
  } else {
    summary.min_step = scan.min_step.value_or(0);
    summary.max_step = scan.max_step;
  }
  MSP_ASSIGN_OR_RETURN(TrendDb db, TrendDb::Create((fs::path(options.db_dir) / kMonitorDbName).string()));
  MSP_ASSIGN_OR_RETURN(const MonitorIds ids, WriteTables(db, scan, &summary));

  std::vector<std::optional<double>> values(ids.columns.size());
  for (const MonitorRankDir& rank : ranks) {
    for (const MonitorFile& file : rank.files) {
      if (ids.metrics[file.metric] == 0) continue;
      MSP_RETURN_IF_ERROR(ReadMonitorFile(file.path, JobContext{}, [&](const MonitorCsvRow& row) {
        const TargetKey key{MappedName(row.name, mapping), row.vpp_stage, options.micro_step ? 0 : row.micro_step};
        const auto target = ids.targets.find(key);
        if (target == ids.targets.end()) return Status::Ok();
        const auto first = first_step.find(row.step);
        const int64_t step = options.micro_step ? (first == first_step.end() ? 0 : first->second) + row.micro_step : row.step;
        for (size_t i = 0; i < ids.columns.size(); ++i) values[i] = row.stats[ids.columns[i]];
        return db.InsertRow(rank.rank, step, target->second, ids.metrics[file.metric], values);
      }, nullptr));
      if (ctx.progress) ctx.progress(file.path, ++done, total);
    }
    MSP_RETURN_IF_ERROR(db.Checkpoint());
  }
  summary.files = total / 2;
  MSP_ASSIGN_OR_RETURN(summary, db.Finish(std::move(summary)));
  return std::optional<TrendDbSummary>(std::move(summary));
}

}  // namespace msprobe::compare::internal
