#include "trend/trend_schema_internal.h"

namespace msprobe::compare::internal {
namespace {

// msprobe writes each column on a line of its own indented by 12 spaces, the closing parenthesis by 8.
constexpr std::string_view kColumnIndent = "\n            ";
constexpr std::string_view kClose = "\n        )";

}  // namespace

const std::array<std::string_view, 4> kTrendBaseTables = {
    "CREATE TABLE monitoring_targets (\n"
    "            target_id INTEGER PRIMARY KEY AUTOINCREMENT,\n"
    "            target_name TEXT NOT NULL,\n"
    "            vpp_stage INTEGER NOT NULL,\n"
    "            micro_step INTEGER NOT NULL DEFAULT 0,\n"
    "            UNIQUE(target_name, vpp_stage, micro_step)\n"
    "        )",
    "CREATE TABLE monitoring_metrics (\n"
    "            metric_id INTEGER PRIMARY KEY AUTOINCREMENT,\n"
    "            metric_name TEXT UNIQUE NOT NULL\n"
    "        )",
    "CREATE TABLE monitoring_tags (\n"
    "            tag_id INTEGER PRIMARY KEY AUTOINCREMENT,\n"
    "            tag_name TEXT NOT NULL,\n"
    "            category TEXT NOT NULL,\n"
    "            metric_id INTEGER NOT NULL,\n"
    "            UNIQUE(tag_name, category, metric_id),\n"
    "            FOREIGN KEY (metric_id) REFERENCES monitoring_metrics(metric_id)\n"
    "        )",
    "CREATE TABLE tag_target_mapping (\n"
    "            tag_id INTEGER NOT NULL,\n"
    "            target_id INTEGER NOT NULL,\n"
    "            PRIMARY KEY (tag_id, target_id),\n"
    "            FOREIGN KEY (tag_id) REFERENCES monitoring_tags(tag_id),\n"
    "            FOREIGN KEY (target_id) REFERENCES monitoring_target(target_id)\n"  // sic: msprobe's table name
    "        )",
};

std::string TrendDataTable(std::span<const std::string_view> stats) {
  std::string sql = "CREATE TABLE trend_data (";
  for (std::string_view column : {"rank INTEGER NOT NULL,", "step INTEGER NOT NULL,", "target_id INTEGER NOT NULL,",
                                  "metric_id INTEGER NOT NULL,"}) {
    sql += kColumnIndent;
    sql += column;
  }
  sql += kColumnIndent;
  for (std::string_view stat : stats) {
    sql += stat;
    sql += " REAL DEFAULT NULL, ";
  }
  sql.resize(sql.size() - 1);  // the last ", " keeps its comma: the constraints follow
  for (std::string_view line : {"PRIMARY KEY (rank, step, target_id, metric_id),",
                                "FOREIGN KEY (target_id) REFERENCES monitoring_targets(target_id),",
                                "FOREIGN KEY (metric_id) REFERENCES monitoring_metrics(metric_id)"}) {
    sql += kColumnIndent;
    sql += line;
  }
  sql += kClose;
  sql += " WITHOUT ROWID";
  return sql;
}

std::string GlobalStatsTable(const std::vector<GlobalStatsColumn>& columns) {
  std::string sql = "CREATE TABLE global_stats (";
  sql += kColumnIndent;
  for (size_t i = 0; i < columns.size(); ++i) {
    if (i > 0) sql += ", ";
    sql += columns[i].name;
    sql += columns[i].integer ? " INTEGER DEFAULT 0" : " TEXT DEFAULT NULL";
  }
  sql += kClose;
  return sql;
}

}  // namespace msprobe::compare::internal
