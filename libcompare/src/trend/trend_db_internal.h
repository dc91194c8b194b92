// A trend database being written (docs/trend.md §3): under a temporary name beside its final one
// until Finish, inside transactions, every insert through a prepared statement and, as msprobe's
// are, INSERT OR IGNORE, so that target ids take the same values (an ignored insert spends one).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/compare/trend/data2db_job.h"
#include "msprobe/dump/io/pending_output.h"
#include "msprobe/dump/util/status.h"
#include "trend/sqlite_db_internal.h"
#include "trend/trend_schema_internal.h"

namespace msprobe::compare::internal {

class TrendDb {
 public:
  // Opens a new database for `path` under a temporary name, in a transaction, with the four base
  // tables (targets, metrics, tags, mapping).
  static Result<TrendDb> Create(const std::string& path);

  // trend_data with these statistic columns; InsertRow takes one value per column.
  Status CreateTrendData(std::span<const std::string_view> stats);
  // global_stats with its one row: integers for the integer columns, texts for the others, in order.
  Status CreateGlobalStats(const std::vector<GlobalStatsColumn>& columns, std::span<const int64_t> integers,
                           std::span<const std::string> texts);

  Result<int64_t> AddMetric(std::string_view name);
  // The target's new id, or nullopt when the row was there already (its id spent all the same).
  Result<std::optional<int64_t>> InsertTarget(std::string_view name, int64_t vpp_stage, int64_t micro_step);
  // A row of trend_data; ignored when its key (rank, step, target, metric) is there already.
  Status InsertRow(int64_t rank, int64_t step, int64_t target, int64_t metric,
                   std::span<const std::optional<double>> values);
  Result<int64_t> InsertTag(std::string_view name, std::string_view category, int64_t metric);
  Status InsertMapping(int64_t tag, int64_t target);

  // Commits what is written so far and goes on in a new transaction.
  Status Checkpoint();
  // Commits, closes and renames the database to its final name; `summary` gets its path and counts.
  Result<TrendDbSummary> Finish(TrendDbSummary summary);

  SqliteDb& sql() { return *db_; }
  const std::string& path() const { return output_.path(); }
  uint64_t rows() const { return rows_; }  // rows of trend_data inserted
  uint64_t targets() const { return targets_; }
  uint64_t tags() const { return tags_; }

 private:
  TrendDb(PendingOutput output, SqliteDb db) : output_(std::move(output)), db_(std::move(db)) {}
  Result<int64_t> InsertedId(SqliteStatement& insert);

  PendingOutput output_;
  std::optional<SqliteDb> db_;  // emptied by Finish
  std::optional<SqliteStatement> insert_target_, insert_metric_, insert_row_, insert_tag_, insert_mapping_;
  size_t stat_columns_ = 0;
  uint64_t rows_ = 0, targets_ = 0, tags_ = 0;
};

}  // namespace msprobe::compare::internal
