#include "msprobe/compare/trend/data2db_job.h"

#include <fmt/format.h>

#include <filesystem>

#include "msprobe/dump/framework/output_location.h"
#include "trend/dump_import_internal.h"
#include "trend/monitor_import_internal.h"
#include "trend/python_dict_internal.h"

namespace msprobe::compare {
namespace {

namespace fs = std::filesystem;

// --mapping: a JSON object of text replacements, applied in its order.
Result<internal::NameMapping> ReadNameMapping(const std::string& path) {
  internal::NameMapping mapping;
  if (path.empty()) return mapping;
  MSP_ASSIGN_OR_RETURN(const JsonDocument doc, ReadJsonFile(path));
  if (!doc.IsObject()) return Status::InvalidInput(path, "the mapping must be a JSON object of names to names");
  for (const auto& [from, to] : internal::DictItems(doc)) {
    if (!to->IsString()) return Status::InvalidInput(path, fmt::format("'{}': the new name must be text", from));
    mapping.emplace_back(std::string(from), std::string(to->GetString(), to->GetStringLength()));
  }
  return mapping;
}

Status NothingFound(const Data2DbOptions& options, bool found_steps) {
  switch (options.format) {
    case TrendFormat::kDump:
      return Status::NotFound(options.data_dir, found_steps ? "no step<N>/rank<N> or proc<N> directory with a dump.json"
                                                            : "no step<N> directory: not a dump root");
    case TrendFormat::kMonitor:
      return Status::NotFound(options.data_dir, "no monitor directory (<time>-rank<N>-<id>) with csv files");
    case TrendFormat::kAuto:
      break;
  }
  return Status::NotFound(options.data_dir, "neither a dump root (step<N>/rank<N>/dump.json) nor monitor output "
                                            "(<time>-rank<N>-<id>/<metric>_<start>-<end>.csv)");
}

}  // namespace

Result<Data2DbReport> RunData2Db(const Data2DbOptions& options, const JobContext& ctx) {
  MSP_ASSIGN_OR_RETURN(const internal::NameMapping mapping, ReadNameMapping(options.mapping_file));
  std::error_code ec;
  if (!fs::is_directory(options.data_dir, ec)) return Status::NotFound(options.data_dir, "no such directory");
  MSP_RETURN_IF_ERROR(CheckOutputOutsideInputs(options.db_dir, /*is_dir=*/true, {options.data_dir}));
  fs::create_directories(options.db_dir, ec);
  if (ec) return Status::IOError(options.db_dir, "cannot create the directory: " + ec.message());
  Data2DbReport report;
  bool found_steps = false;
  if (options.format != TrendFormat::kMonitor) {
    MSP_ASSIGN_OR_RETURN(report.dump_db, internal::ImportDumpRoot(options, mapping, ctx, &found_steps));
  }
  if (options.format != TrendFormat::kDump) {
    MSP_ASSIGN_OR_RETURN(report.monitor_db, internal::ImportMonitorRoot(options, mapping, ctx));
  }
  if (!report.dump_db && !report.monitor_db) return NothingFound(options, found_steps);
  return report;
}

}  // namespace msprobe::compare
