#include "trend/trend_db_internal.h"

#include <fmt/format.h>

namespace msprobe::compare::internal {

Result<TrendDb> TrendDb::Create(const std::string& path) {
  MSP_ASSIGN_OR_RETURN(PendingOutput output, PendingOutput::Create(path));
  MSP_ASSIGN_OR_RETURN(SqliteDb db, SqliteDb::Open(output.temp_path(), SqliteDb::Mode::kWrite, path));
  TrendDb trend(std::move(output), std::move(db));
  MSP_RETURN_IF_ERROR(trend.sql().Exec("BEGIN"));
  for (std::string_view table : kTrendBaseTables) MSP_RETURN_IF_ERROR(trend.sql().Exec(table));
  MSP_ASSIGN_OR_RETURN(trend.insert_target_,
                       trend.sql().Prepare("INSERT OR IGNORE INTO monitoring_targets (target_name, vpp_stage, "
                                           "micro_step) VALUES (?, ?, ?)"));
  MSP_ASSIGN_OR_RETURN(trend.insert_metric_,
                       trend.sql().Prepare("INSERT OR IGNORE INTO monitoring_metrics (metric_name) VALUES (?)"));
  MSP_ASSIGN_OR_RETURN(trend.insert_tag_, trend.sql().Prepare("INSERT OR IGNORE INTO monitoring_tags (tag_name, "
                                                              "category, metric_id) VALUES (?, ?, ?)"));
  MSP_ASSIGN_OR_RETURN(trend.insert_mapping_,
                       trend.sql().Prepare("INSERT OR IGNORE INTO tag_target_mapping (target_id, tag_id) VALUES (?, ?)"));
  return trend;
}

Status TrendDb::CreateTrendData(std::span<const std::string_view> stats) {
  MSP_RETURN_IF_ERROR(sql().Exec(TrendDataTable(stats)));
  std::string insert = "INSERT OR IGNORE INTO trend_data VALUES (?, ?, ?, ?";
  for (size_t i = 0; i < stats.size(); ++i) insert += ", ?";
  insert += ')';
  MSP_ASSIGN_OR_RETURN(insert_row_, sql().Prepare(insert));
  stat_columns_ = stats.size();
  return Status::Ok();
}

Status TrendDb::CreateGlobalStats(const std::vector<GlobalStatsColumn>& columns, std::span<const int64_t> integers,
                                  std::span<const std::string> texts) {
  MSP_RETURN_IF_ERROR(sql().Exec(GlobalStatsTable(columns)));
  std::string insert = "INSERT INTO global_stats VALUES (";
  for (size_t i = 0; i < columns.size(); ++i) insert += i == 0 ? "?" : ", ?";
  insert += ')';
  MSP_ASSIGN_OR_RETURN(SqliteStatement statement, sql().Prepare(insert));
  size_t next_integer = 0, next_text = 0;
  for (size_t i = 0; i < columns.size(); ++i) {
    if (columns[i].integer) {
      statement.Bind(static_cast<int>(i + 1), integers[next_integer++]);
    } else {
      statement.Bind(static_cast<int>(i + 1), std::string_view(texts[next_text++]));
    }
  }
  return statement.Run();
}

Result<int64_t> TrendDb::InsertedId(SqliteStatement& insert) {
  MSP_RETURN_IF_ERROR(insert.Run());
  return sql().Changes() > 0 ? sql().LastInsertRowid() : 0;
}

Result<int64_t> TrendDb::AddMetric(std::string_view name) {
  insert_metric_->Bind(1, name);
  return InsertedId(*insert_metric_);
}

Result<std::optional<int64_t>> TrendDb::InsertTarget(std::string_view name, int64_t vpp_stage, int64_t micro_step) {
  insert_target_->Bind(1, name);
  insert_target_->Bind(2, vpp_stage);
  insert_target_->Bind(3, micro_step);
  MSP_ASSIGN_OR_RETURN(const int64_t id, InsertedId(*insert_target_));
  if (id == 0) return std::optional<int64_t>();
  ++targets_;
  return std::optional<int64_t>(id);
}

Status TrendDb::InsertRow(int64_t rank, int64_t step, int64_t target, int64_t metric,
                          std::span<const std::optional<double>> values) {
  if (values.size() != stat_columns_) return Status::Internal(path(), "a trend row of the wrong width");
  SqliteStatement& insert = *insert_row_;
  insert.Bind(1, rank);
  insert.Bind(2, step);
  insert.Bind(3, target);
  insert.Bind(4, metric);
  for (size_t i = 0; i < values.size(); ++i) insert.Bind(static_cast<int>(i + 5), values[i]);
  MSP_RETURN_IF_ERROR(insert.Run());
  rows_ += static_cast<uint64_t>(sql().Changes());
  return Status::Ok();
}

Result<int64_t> TrendDb::InsertTag(std::string_view name, std::string_view category, int64_t metric) {
  insert_tag_->Bind(1, name);
  insert_tag_->Bind(2, category);
  insert_tag_->Bind(3, metric);
  MSP_ASSIGN_OR_RETURN(const int64_t id, InsertedId(*insert_tag_));
  if (id == 0) return Status::Internal(path(), fmt::format("tag {} ({}) inserted twice", name, category));
  ++tags_;
  return id;
}

Status TrendDb::InsertMapping(int64_t tag, int64_t target) {
  insert_mapping_->Bind(1, target);
  insert_mapping_->Bind(2, tag);
  return insert_mapping_->Run();
}

Status TrendDb::Checkpoint() { return sql().Exec("COMMIT; BEGIN"); }

Result<TrendDbSummary> TrendDb::Finish(TrendDbSummary summary) {
  MSP_RETURN_IF_ERROR(sql().Exec("COMMIT"));
  insert_target_.reset();
  insert_metric_.reset();
  insert_row_.reset();
  insert_tag_.reset();
  insert_mapping_.reset();
  MSP_RETURN_IF_ERROR(db_->Close());
  db_.reset();
  MSP_RETURN_IF_ERROR(output_.Commit());
  summary.path = path();
  summary.rows = rows_;
  summary.targets = targets_;
  summary.tags = tags_;
  return summary;
}

}  // namespace msprobe::compare::internal
