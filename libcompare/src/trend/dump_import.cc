#include "trend/dump_import_internal.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "msprobe/dump/framework/dump_json.h"
#include "trend/dump_scan_internal.h"
#include "trend/dump_targets_internal.h"
#include "trend/micro_steps_internal.h"
#include "trend/trend_db_internal.h"
#include "trend/trend_value_internal.h"

namespace msprobe::compare::internal {
namespace {

namespace fs = std::filesystem;

// One dump.json's entries into the database: each entry's kept tensors become rows of its target,
// at the step its micro step gives; msprobe's flush points are kept (DumpTargets).
class DumpFileReader : public DumpJsonVisitor {
 public:
  DumpFileReader(DumpTargets* targets, const NameMapping& mapping, const MicroSteps& micro, int64_t start, int64_t rank)
      : targets_(targets), mapping_(mapping), micro_(micro), start_(start), rank_(rank) {}

  Status Entry(std::string_view key, const JsonValue& value) override {
    if (!value.IsObject()) return Status::Ok();
    std::string_view name = key;
    int64_t micro = 0;
    if (!micro_.keys.empty()) {  // only the keys under a root, renumbered
      const auto it = micro_.keys.find(key);
      if (it == micro_.keys.end()) return Status::Ok();
      name = it->second.renamed;
      micro = it->second.micro;
    }
    if (name.empty()) return Status::Ok();
    const std::optional<EntryTarget> target = TargetOfKey(name, value, mapping_);
    if (!target) return Status::Ok();
    Status status;
    std::string target_name = target->prefix;
    ForEachKeptTensor(target->metric, value, [&](std::string_view suffix, const JsonValue& tensor) {
      if (!status.ok()) return;
      target_name.resize(target->prefix.size());
      target_name += suffix;
      const DumpStats stats = {TrendValue(msprobe::Member(tensor, "Norm")), TrendValue(msprobe::Member(tensor, "Max")),
                               TrendValue(msprobe::Member(tensor, "Min")), TrendValue(msprobe::Member(tensor, "Mean"))};
      status = targets_->AddRow(rank_, start_ + micro, target_name, target->call, target->metric, stats);
    });
    MSP_RETURN_IF_ERROR(status);
    const uint64_t rows = targets_->rows_since_flush();
    if (rows > 0 && rows % DumpTargets::kFlushRows == 0) return targets_->Flush();
    return Status::Ok();
  }

 private:
  DumpTargets* targets_;
  const NameMapping& mapping_;
  const MicroSteps& micro_;
  int64_t start_, rank_;
};

struct ImportState {
  const Data2DbOptions& options;
  const NameMapping& mapping;
  const JobContext& ctx;
  DumpTargets* targets;
  uint64_t done = 0, total = 0;
};

// One rank of one step; returns its count of micro steps (1 without micro steps).
Result<int64_t> ImportRank(ImportState& state, const TrendRankDir& rank, int64_t start) {
  const std::string dump_json = (fs::path(rank.dir) / "dump.json").string();
  MicroSteps micro;
  if (state.options.micro_step) {
    const std::string construct = (fs::path(rank.dir) / "construct.json").string();
    std::error_code ec;
    if (!fs::exists(construct, ec)) {
      return Status::NotFound(construct, "no such file: micro steps are read from it (--micro_step false does without)");
    }
    MSP_ASSIGN_OR_RETURN(micro, ReadMicroSteps(construct));
  }
  DumpFileReader reader(state.targets, state.mapping, micro, start, rank.rank);
  MSP_ASSIGN_OR_RETURN(const DumpJsonHeader header, StreamDumpJson(dump_json, reader, EntryParsing::kAhead));
  MSP_RETURN_IF_ERROR(state.targets->Flush());  // msprobe's flush at the end of every file
  if (!header.has_data && state.ctx.warn) state.ctx.warn(dump_json, "no \"data\" object; nothing read from it");
  if (state.ctx.progress) state.ctx.progress(dump_json, ++state.done, state.total);
  return micro.count;
}

}  // namespace

Result<std::optional<TrendDbSummary>> ImportDumpRoot(const Data2DbOptions& options, const NameMapping& mapping,
                                                      const JobContext& ctx, bool* found_steps) {
  MSP_ASSIGN_OR_RETURN(const DumpRootScan scan, ScanDumpRoot(options.data_dir, ctx.warn));
  *found_steps = scan.any_step_dir;
  if (scan.steps.empty()) return std::optional<TrendDbSummary>();
  MSP_ASSIGN_OR_RETURN(TrendDb db, TrendDb::Create((fs::path(options.db_dir) / kDumpDbName).string()));
  MSP_RETURN_IF_ERROR(db.CreateTrendData(kDumpStats));
  for (std::string_view metric : kDumpMetrics) MSP_RETURN_IF_ERROR(db.AddMetric(metric).status());
  DumpTargets targets(&db);
  ImportState state{options, mapping, ctx, &targets};
  for (const TrendStepDir& step : scan.steps) state.total += step.ranks.size();

  TrendDbSummary summary;
  int64_t start = 0;  // the step the next step directory begins at
  for (const TrendStepDir& step : scan.steps) {
    if (!options.micro_step) start = step.step;
    int64_t micro_steps = 1;
    for (const TrendRankDir& rank : step.ranks) {
      summary.max_rank = std::max(summary.max_rank, rank.rank);
      MSP_ASSIGN_OR_RETURN(const int64_t count, ImportRank(state, rank, start));
      micro_steps = std::max(micro_steps, count);
      MSP_RETURN_IF_ERROR(db.Checkpoint());
    }
    if (options.micro_step) start += micro_steps;
  }
  summary.min_step = options.micro_step ? 0 : scan.steps.front().step;
  summary.max_step = options.micro_step ? start - 1 : start;
  const std::vector<GlobalStatsColumn> columns = {{"max_rank", true}, {"min_step", true}, {"max_step", true},
                                                  {"forward", false}, {"backward", false}, {"recompute", false},
                                                  {"parameters_grad", false}};
  const std::vector<std::string> stats(kDumpMetrics.size(), "norm,max,min,mean");
  const std::array<int64_t, 3> bounds = {summary.max_rank, summary.min_step, summary.max_step};
  MSP_RETURN_IF_ERROR(db.CreateGlobalStats(columns, bounds, stats));
  MSP_RETURN_IF_ERROR(targets.WriteTags());
  summary.files = state.done;
  MSP_ASSIGN_OR_RETURN(summary, db.Finish(std::move(summary)));
  return std::optional<TrendDbSummary>(std::move(summary));
}

}  // namespace msprobe::compare::internal
