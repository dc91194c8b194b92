#include "trend/trend_page_data_internal.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>

#include "report/json_text_internal.h"
#include "msprobe/dump/text/python_format.h"

namespace msprobe::compare::internal {
namespace {

// A column of a JSON array being written: "[a,b,c" until Close.
class JsonColumn {
 public:
  JsonColumn() : text_("[") {}
  void Add(int64_t value) {
    Separate();
    fmt::format_to(std::back_inserter(text_), "{}", value);
  }
  void Add(std::optional<double> value) {
    Separate();
    if (!value) {
      text_ += "null";
      return;
    }
    char buffer[32];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, *value).ptr;  // shortest round trip
    text_.append(buffer, end);
  }
  void AddString(std::string_view value) {
    Separate();
    AppendJsonString(value, &text_);
  }
  std::string Close() && { return std::move(text_) + ']'; }

 private:
  void Separate() {
    if (text_.size() > 1) text_ += ',';
  }
  std::string text_;
};

Result<std::set<std::string>> TableNames(SqliteDb& db) {
  MSP_ASSIGN_OR_RETURN(SqliteStatement query, db.Prepare("SELECT name FROM sqlite_master WHERE type = 'table'"));
  std::set<std::string> names;
  MSP_RETURN_IF_ERROR(query.ForEachRow([&] {
    names.emplace(query.Text(0));
    return Status::Ok();
  }));
  return names;
}

Result<std::vector<std::string>> Columns(SqliteDb& db, std::string_view table) {
  MSP_ASSIGN_OR_RETURN(SqliteStatement query, db.Prepare(fmt::format("PRAGMA table_info({})", table)));
  std::vector<std::string> names;
  MSP_RETURN_IF_ERROR(query.ForEachRow([&] {
    names.emplace_back(query.Text(1));
    return Status::Ok();
  }));
  return names;
}

// The WHERE clause of the filter and its values to bind, in order.
struct Where {
  std::string sql;
  std::vector<int64_t> values;
};

Where WhereOf(const TrendRowFilter& filter) {
  Where where;
  std::vector<std::string> terms;
  if (filter.first_step) {
    terms.emplace_back("step >= ?");
    where.values.push_back(*filter.first_step);
  }
  if (filter.last_step) {
    terms.emplace_back("step <= ?");
    where.values.push_back(*filter.last_step);
  }
  if (!filter.ranks.empty()) {
    std::string in = "rank IN (";
    for (size_t i = 0; i < filter.ranks.size(); ++i) in += i == 0 ? "?" : ", ?";
    terms.push_back(in + ')');
    where.values.insert(where.values.end(), filter.ranks.begin(), filter.ranks.end());
  }
  for (size_t i = 0; i < terms.size(); ++i) where.sql += (i == 0 ? " WHERE " : " AND ") + terms[i];
  return where;
}

Result<SqliteStatement> PrepareWhere(SqliteDb& db, const std::string& select, const Where& where) {
  MSP_ASSIGN_OR_RETURN(SqliteStatement query, db.Prepare(select + where.sql));
  for (size_t i = 0; i < where.values.size(); ++i) query.Bind(static_cast<int>(i + 1), where.values[i]);
  return query;
}

// The distinct values of `column` among the filtered rows, ascending, each with its index.
Result<std::map<int64_t, int64_t>> DistinctIndex(SqliteDb& db, std::string_view column, const Where& where) {
  MSP_ASSIGN_OR_RETURN(SqliteStatement query,
                       PrepareWhere(db, fmt::format("SELECT DISTINCT {} FROM trend_data", column), where));
  std::set<int64_t> values;
  MSP_RETURN_IF_ERROR(query.ForEachRow([&] {
    values.insert(query.Int64(0));
    return Status::Ok();
  }));
  std::map<int64_t, int64_t> index;
  for (const int64_t v : values) index.emplace(v, static_cast<int64_t>(index.size()));
  return index;
}

// Each metric's statistics: global_stats names them per metric ("norm,max,min,mean"); all
// columns where it does not.
Result<std::unordered_map<std::string, std::string>> MetricStats(SqliteDb& db, const std::set<std::string>& tables) {
  std::unordered_map<std::string, std::string> stats;
  if (!tables.contains("global_stats")) return stats;
  MSP_ASSIGN_OR_RETURN(const std::vector<std::string> columns, Columns(db, "global_stats"));
  MSP_ASSIGN_OR_RETURN(SqliteStatement query, db.Prepare("SELECT * FROM global_stats LIMIT 1"));
  MSP_ASSIGN_OR_RETURN(const bool row, query.Step());
  for (size_t i = 0; row && i < columns.size(); ++i) {
    if (!query.IsNull(static_cast<int>(i))) stats[columns[i]] = std::string(query.Text(static_cast<int>(i)));
  }
  return stats;
}

Status AppendMetrics(SqliteDb& db, const std::set<std::string>& tables, const std::vector<std::string>& stat_columns,
                     const std::map<int64_t, int64_t>& metrics, std::string* out) {
  MSP_ASSIGN_OR_RETURN(const auto metric_stats, MetricStats(db, tables));
  MSP_ASSIGN_OR_RETURN(SqliteStatement query,
                       db.Prepare("SELECT metric_id, metric_name FROM monitoring_metrics ORDER BY metric_id"));
  std::map<int64_t, std::string> names;
  MSP_RETURN_IF_ERROR(query.ForEachRow([&] {
    names.emplace(query.Int64(0), query.Text(1));
    return Status::Ok();
  }));
  *out += ",\"metrics\":[";
  for (const auto& [id, index] : metrics) {
    const auto name = names.find(id);
    const std::string label = name == names.end() ? fmt::format("metric {}", id) : name->second;
    const auto listed = metric_stats.find(label);
    JsonColumn stats;
    for (size_t i = 0; i < stat_columns.size(); ++i) {
      const bool shown = listed == metric_stats.end() ||
                         ("," + listed->second + ",").find("," + stat_columns[i] + ",") != std::string::npos;
      if (shown) stats.Add(static_cast<int64_t>(i));
    }
    if (index > 0) *out += ',';
    *out += fmt::format("{{\"id\":{},\"name\":", id);
    AppendJsonString(label, out);
    *out += ",\"stats\":" + std::move(stats).Close() + '}';
  }
  *out += ']';
  return Status::Ok();
}

Status AppendTargets(SqliteDb& db, const std::map<int64_t, int64_t>& targets, std::string* out) {
  MSP_ASSIGN_OR_RETURN(SqliteStatement query, db.Prepare("SELECT target_id, target_name, vpp_stage, micro_step FROM "
                                                         "monitoring_targets ORDER BY target_id"));
  JsonColumn ids, names, calls, vpps;
  MSP_RETURN_IF_ERROR(query.ForEachRow([&] {
    if (!targets.contains(query.Int64(0))) return Status::Ok();
    ids.Add(query.Int64(0));
    names.AddString(query.Text(1));
    vpps.Add(query.Int64(2));
    calls.Add(query.Int64(3));
    return Status::Ok();
  }));
  *out += ",\"targets\":{\"id\":" + std::move(ids).Close() + ",\"name\":" + std::move(names).Close() +
          ",\"call\":" + std::move(calls).Close() + ",\"vpp\":" + std::move(vpps).Close() + '}';
  return Status::Ok();
}

// The tags of the metrics shown, each with the shown targets it marks; tags marking none are left out.
Status AppendTags(SqliteDb& db, const std::set<std::string>& tables, const std::map<int64_t, int64_t>& metrics,
                  const std::map<int64_t, int64_t>& targets, std::string* out) {
  std::map<int64_t, std::vector<int64_t>> marked;  // tag id -> target indices
  if (tables.contains("monitoring_tags") && tables.contains("tag_target_mapping")) {
    MSP_ASSIGN_OR_RETURN(SqliteStatement query,
                         db.Prepare("SELECT tag_id, target_id FROM tag_target_mapping ORDER BY tag_id, target_id"));
    MSP_RETURN_IF_ERROR(query.ForEachRow([&] {
      const auto target = targets.find(query.Int64(1));
      if (target != targets.end()) marked[query.Int64(0)].push_back(target->second);
      return Status::Ok();
    }));
  }
  JsonColumn names, categories, tag_metrics;
  std::string lists = "[";
  if (!marked.empty()) {
    MSP_ASSIGN_OR_RETURN(SqliteStatement query,
                         db.Prepare("SELECT tag_id, tag_name, category, metric_id FROM monitoring_tags ORDER BY tag_id"));
    MSP_RETURN_IF_ERROR(query.ForEachRow([&] {
      const auto list = marked.find(query.Int64(0));
      const auto metric = metrics.find(query.Int64(3));
      if (list == marked.end() || metric == metrics.end()) return Status::Ok();
      names.AddString(query.Text(1));
      categories.AddString(query.Text(2));
      tag_metrics.Add(metric->second);
      JsonColumn indices;
      for (const int64_t i : list->second) indices.Add(i);
      lists += (lists.size() > 1 ? "," : "") + std::move(indices).Close();
      return Status::Ok();
    }));
  }
  *out += ",\"tags\":{\"name\":" + std::move(names).Close() + ",\"category\":" + std::move(categories).Close() +
          ",\"metric\":" + std::move(tag_metrics).Close() + ",\"targets\":" + lists + "]}";
  return Status::Ok();
}

}  // namespace

Result<TrendPageData> ReadTrendPageData(SqliteDb& db, const std::string& title, const TrendRowFilter& filter) {
  MSP_ASSIGN_OR_RETURN(const std::set<std::string> tables, TableNames(db));
  for (const char* table : {"trend_data", "monitoring_targets", "monitoring_metrics"}) {
    if (!tables.contains(table)) return Status::InvalidInput(db.source(), fmt::format("not a trend database: no table {}", table));
  }
  MSP_ASSIGN_OR_RETURN(std::vector<std::string> columns, Columns(db, "trend_data"));
  if (columns.size() < 4 || columns[0] != "rank" || columns[1] != "step" || columns[2] != "target_id" ||
      columns[3] != "metric_id") {
    return Status::InvalidInput(db.source(), "not a trend database: trend_data's columns are not rank, step, target_id, "
                                             "metric_id, statistics");
  }
  const std::vector<std::string> stats(columns.begin() + 4, columns.end());
  const Where where = WhereOf(filter);
  MSP_ASSIGN_OR_RETURN(SqliteStatement count, PrepareWhere(db, "SELECT count(*) FROM trend_data", where));
  MSP_RETURN_IF_ERROR(count.Step().status());
  TrendPageData data;
  data.rows = static_cast<uint64_t>(count.Int64(0));
  if (filter.max_rows > 0 && data.rows > filter.max_rows) {
    return Status::InvalidInput(db.source(), fmt::format("{} rows to show, more than {}: choose steps or ranks "
                                                         "(--first-step, --last-step, --ranks) or raise --max-rows",
                                                         data.rows, filter.max_rows));
  }
  MSP_ASSIGN_OR_RETURN(const auto metrics, DistinctIndex(db, "metric_id", where));
  MSP_ASSIGN_OR_RETURN(const auto targets, DistinctIndex(db, "target_id", where));

  std::string& out = data.json;
  out = "{\"title\":";
  AppendJsonString(title, &out);
  out += ",\"stats\":";
  JsonColumn stat_names;
  for (const std::string& s : stats) stat_names.AddString(s);
  out += std::move(stat_names).Close();
  MSP_RETURN_IF_ERROR(AppendMetrics(db, tables, stats, metrics, &out));
  MSP_RETURN_IF_ERROR(AppendTargets(db, targets, &out));
  MSP_RETURN_IF_ERROR(AppendTags(db, tables, metrics, targets, &out));

  std::string select = "SELECT rank, step, target_id, metric_id";
  for (const std::string& s : stats) select += ", \"" + PythonReplace(s, "\"", "\"\"") + '"';  // quoted as an SQL name
  MSP_ASSIGN_OR_RETURN(SqliteStatement rows, PrepareWhere(db, select + " FROM trend_data", where));
  JsonColumn ranks, steps, row_targets, row_metrics;
  std::vector<JsonColumn> values(stats.size());
  MSP_RETURN_IF_ERROR(rows.ForEachRow([&] {
    ranks.Add(rows.Int64(0));
    steps.Add(rows.Int64(1));
    row_targets.Add(targets.at(rows.Int64(2)));
    row_metrics.Add(metrics.at(rows.Int64(3)));
    for (size_t i = 0; i < stats.size(); ++i) {
      const int column = static_cast<int>(i + 4);
      values[i].Add(rows.IsNull(column) ? std::nullopt : std::optional<double>(rows.Double(column)));
    }
    return Status::Ok();
  }));
  out += ",\"rows\":{\"rank\":" + std::move(ranks).Close() + ",\"step\":" + std::move(steps).Close() +
         ",\"target\":" + std::move(row_targets).Close() + ",\"metric\":" + std::move(row_metrics).Close() +
         ",\"values\":[";
  for (size_t i = 0; i < values.size(); ++i) out += (i > 0 ? "," : "") + std::move(values[i]).Close();
  out += "]}}";
  return data;
}

}  // namespace msprobe::compare::internal
