// summary.json of `msprobe-dump consistency` (docs/consistency.md §5): what a CI reads.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "consistency/consistency_outputs_internal.h"
#include "msprobe/dump/io/atomic_file.h"

namespace msprobe::compare::internal {
namespace {

using Json = nlohmann::ordered_json;

std::string DataParallelText(const DataParallelSpec& dp) {
  switch (dp.kind) {
    case DataParallelSpec::Kind::kAuto: return "auto";
    case DataParallelSpec::Kind::kNone: return "none";
    case DataParallelSpec::Kind::kAll: return "all";
    case DataParallelSpec::Kind::kGroups: break;
  }
  std::vector<std::string> groups;
  for (const std::vector<int64_t>& group : dp.groups) groups.push_back(fmt::format("{}", fmt::join(group, ",")));
  return fmt::format("{}", fmt::join(groups, "/"));
}

}  // namespace

Status WriteConsistencySummary(const std::string& path, const ConsistencyOptions& options,
                               const ConsistencyReport& report) {
  Json summary = {{"tool", "msprobe-dump consistency"}, {"version", options.tool_version}, {"input", options.input},
                  {"mode", report.mode}};
  summary["settings"] = {{"data_parallel", DataParallelText(options.data_parallel)},
                         {"grads_reduced", options.grads_reduced},
                         {"z_threshold", options.z_threshold},
                         {"recompute_stats", options.recompute_stats},
                         {"fail_on", options.fail_on_suspect ? "suspect" : "inconsistency"}};
  const ConsistencyCounts& n = report.counts;
  summary["counts"] = {{"steps", n.steps}, {"ranks", n.ranks}, {"dumps", n.dumps}, {"arguments", n.arguments},
                       {"inconsistencies", n.inconsistencies}, {"suspects", n.suspects}};
  Json checks = Json::array();
  for (const ConsistencyCheck& c : report.checks) {
    checks.push_back({{"name", c.name}, {"ran", c.ran}, {"compared", c.compared}, {"detail", c.detail}});
  }
  summary["checks"] = std::move(checks);
  if (n.inconsistencies > 0) {
    const ConsistencyFinding& f = report.findings.front();
    summary["first_inconsistency"] = {{"step", f.step}, {"rank", f.rank}, {"api", f.api}, {"name", f.name},
                                      {"reason", f.reason}};
  } else {
    summary["first_inconsistency"] = nullptr;
  }
  summary["nothing_checked"] = report.nothing_checked;
  summary["ranks_without_dump_json"] = report.ranks_without_dump_json;
  summary["gate"] = report.gate_failed ? "failed" : "passed";
  Json outputs = {{"csv", report.csv_file}, {"xlsx", report.xlsx_file}};
  if (!report.html_file.empty()) outputs["html"] = report.html_file;
  summary["outputs"] = std::move(outputs);
  return WriteFileAtomically(path, summary.dump(2, ' ', /*ensure_ascii=*/true, Json::error_handler_t::replace) + '\n');
}

}  // namespace msprobe::compare::internal
