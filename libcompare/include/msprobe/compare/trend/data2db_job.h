// `msprobe data2db` (docs/trend.md): the statistics of a training run's dumps, every step × rank ×
// module, loaded into msprobe's trend database (SQLite), table for table and id for id as msprobe's
// data2db writes it, for its TensorBoard view and for our trend page (trend_page.h). Reads the dump
// roots msprobe's dumper writes (step*/rank*|proc*/dump.json and construct.json), streamed, and the
// csv files of msprobe's training monitor (TrainerMon).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "msprobe/dump/util/job_context.h"
#include "msprobe/dump/util/status.h"

namespace msprobe::compare {

enum class TrendFormat { kAuto, kDump, kMonitor };

struct Data2DbOptions {
  std::string db_dir;        // --db: the directory the database goes into (created)
  std::string data_dir;      // --data: a dump root, or a monitor output directory
  TrendFormat format = TrendFormat::kAuto;  // auto: the dump import, then the monitor import
  std::string mapping_file;  // --mapping: a JSON object of name replacements; empty: none
  bool micro_step = true;    // --micro_step: steps counted in micro steps (gradient accumulation)
};

// What one database received.
struct TrendDbSummary {
  std::string path;  // DIR/dump_data.trend.db or DIR/monitor_data.trend.db
  uint64_t files = 0;    // dump.json or csv files read
  uint64_t rows = 0;     // rows of trend_data
  uint64_t targets = 0;  // rows of monitoring_targets
  uint64_t tags = 0;
  int64_t max_rank = 0, min_step = 0, max_step = 0;  // as global_stats holds them
};

struct Data2DbReport {
  std::optional<TrendDbSummary> dump_db, monitor_db;  // those written
};

// Writes the databases the format asks for; each appears under its final name only when complete,
// replacing an older one. Errors: NotFound when the format finds nothing to import (auto: neither),
// InvalidInput for a malformed dump, construct.json, csv or mapping, or a db_dir at or inside data_dir
// (refused before anything is written), IOError for the database.
// Warnings (ctx.warn): directories passed over. Progress (ctx.progress): files read of all.
Result<Data2DbReport> RunData2Db(const Data2DbOptions& options, const JobContext& ctx);

}  // namespace msprobe::compare
