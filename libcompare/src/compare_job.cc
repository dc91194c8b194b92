#include "msprobe/compare/compare_job.h"

#include <fmt/format.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>

#include <atomic>
#include <ctime>
#include <filesystem>

#include "msprobe/compare/compare_inputs.h"
#include "msprobe/compare/csv_writer.h"
#include "msprobe/compare/flatten.h"
#include "msprobe/compare/json_writer.h"
#include "msprobe/compare/match.h"
#include "msprobe/compare/result_builder.h"
#include "msprobe/compare/result_table.h"
#include "msprobe/compare/stats_diff.h"
#include "msprobe/compare/tensor_compare.h"
#include "msprobe/compare/verdict.h"
#include "msprobe/compare/xlsx_writer.h"
#include "msprobe/dump/dump_layout.h"

namespace msprobe::compare {
namespace {

namespace fs = std::filesystem;

// time.strftime("%Y%m%d%H%M%S"), local time (compare.md §1.4).
std::string Timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y%m%d%H%M%S", &local);
  return buf;
}

bool IsMindSpore(const std::string& framework) { return framework == "mindspore" || framework == "mindtorch"; }

// compare.md §1.2: pytorch vs pytorch, or a MindSpore target against MindSpore or PyTorch.
Status CheckFrameworks(const FlatDump& npu, const FlatDump& bench, const CompareOptions& options) {
  const bool ok = (npu.framework == "pytorch" && bench.framework == "pytorch") ||
                  (IsMindSpore(npu.framework) && (bench.framework == "pytorch" || bench.framework == "mindspore"));
  if (!ok) {
    return Status::InvalidInput(npu.json_path, fmt::format("cannot compare a {} dump with a {} dump ({})", npu.framework,
                                                           bench.framework, bench.json_path));
  }
  if ((options.api_mapping || options.cell_mapping) && npu.framework == "pytorch") {
    return Status::InvalidInput(npu.json_path, "-am/-cm map MindSpore names to PyTorch ones; this target is a PyTorch dump");
  }
  if (npu.task != bench.task) {
    return Status::InvalidInput(npu.json_path, fmt::format("task \"{}\" differs from the golden dump's \"{}\" ({})", npu.task,
                                                           bench.task, bench.json_path));
  }
  if (npu.mode != bench.mode) {
    return Status::InvalidInput(npu.json_path, "one dump has md5 summaries and the other has not (" + bench.json_path + ")");
  }
  return Status::Ok();
}

struct Mappings {
  DataMapping data;
  CellMapping cell;
  ApiMapping api;
  MatchOptions match;
};

Result<Mappings> LoadMappings(const CompareOptions& options) {
  Mappings m;
  m.match.fuzzy = options.fuzzy_match;
  if (!options.data_mapping.empty()) {
    MSP_ASSIGN_OR_RETURN(m.data, LoadDataMapping(options.data_mapping));
  }
  if (options.cell_mapping) {
    MSP_ASSIGN_OR_RETURN(m.cell, LoadCellMapping(options.cell_mapping_yaml));
  }
  if (options.api_mapping) {
    MSP_ASSIGN_OR_RETURN(m.api, LoadApiMapping(options.api_mapping_yaml));
  }
  return m;
}

void ComputeTensorMetrics(const FlatDump& npu, const FlatDump& bench, std::vector<ResultRow>* rows,
                          const std::function<void(uint64_t, uint64_t)>& progress) {
  const std::string npu_dir = TensorDataDir(npu.json_path), bench_dir = TensorDataDir(bench.json_path);
  std::atomic<uint64_t> done{0};
  tbb::parallel_for(size_t{0}, rows->size(), [&](size_t i) {
    ResultRow& r = (*rows)[i];
    TensorCompareInput input{r.npu_data_name, r.bench_data_name, r.matched, npu_dir, bench_dir};
    const std::array<Cell, 6> metrics = CompareTensors(input);
    r.metrics.assign(metrics.begin(), metrics.end());
    if (progress) progress(++done, rows->size());
  });
}

Result<PairResult> ComparePair(const ComparePairSpec& spec, const CompareOptions& options, const Mappings& mappings,
                               const CompareProgress& progress) {
  PairResult result{spec.target_json, spec.golden_json, {}, 0, 0, 0, 0, {}};
  std::string stack = options.stack_path;
  if (stack.empty()) {
    const fs::path beside = fs::path(spec.target_json).parent_path() / "stack.json";
    std::error_code ec;
    if (fs::is_regular_file(beside, ec)) stack = beside.string();
  }
  // The two sides parse independently: one core each.
  Result<FlatDump> npu_flat = Status::Internal("", "not run"), bench_flat = Status::Internal("", "not run");
  tbb::parallel_invoke([&] { npu_flat = FlattenDump(spec.target_json, stack); },
                       [&] { bench_flat = FlattenDump(spec.golden_json, ""); });
  MSP_ASSIGN_OR_RETURN(FlatDump npu, std::move(npu_flat));
  MSP_ASSIGN_OR_RETURN(FlatDump bench, std::move(bench_flat));
  MSP_RETURN_IF_ERROR(CheckFrameworks(npu, bench, options));
  if (npu.rows.empty() || bench.rows.empty()) {
    result.skipped_reason = "no rows to compare on one side (msprobe writes no file then)";
    return result;
  }
  MatchOptions match = mappings.match;
  match.is_debug = npu.is_debug;
  match.cross_framework = IsMindSpore(npu.framework) && bench.framework == "pytorch";
  if (!options.data_mapping.empty()) match.data_mapping = &mappings.data;
  if (options.cell_mapping) match.cell_mapping = &mappings.cell;
  if (options.api_mapping) match.api_mapping = &mappings.api;
  const std::vector<RowPair> pairs = MatchRows(npu.rows, bench.rows, match);

  ResultTable table{npu.mode, !stack.empty(), BuildResultRows(&npu.rows, bench.rows, pairs)};
  switch (table.mode) {
    case CompareMode::kTensor: {
      const std::string label = "compare" + spec.suffix;
      ComputeTensorMetrics(npu, bench, &table.rows, [&](uint64_t d, uint64_t t) { if (progress) progress(label, d, t); });
      break;
    }
    case CompareMode::kSummary:
      tbb::parallel_for(size_t{0}, table.rows.size(), [&](size_t i) { FillStatsDiff(&table.rows[i]); });
      break;
    case CompareMode::kMd5:
      for (size_t i = 0; i < pairs.size(); ++i) {
        FillMd5(&table.rows[i], npu.rows[pairs[i].npu].md5, pairs[i].bench ? bench.rows[*pairs[i].bench].md5 : "N/A");
      }
      break;
  }
  ApplyVerdicts(&table.rows, table.mode);

  std::error_code ec;
  fs::create_directories(spec.output_dir, ec);
  if (ec) return Status::IOError(spec.output_dir, "cannot create the output directory: " + ec.message());
  const std::string stem = (fs::path(spec.output_dir) / ((npu.is_debug ? "debug_compare_result" : "compare_result") +
                                                         spec.suffix + "_" + Timestamp())).string();
  // The writers only read the table: run them side by side (the xlsx is the slow one).
  Result<std::vector<std::string>> csv = std::vector<std::string>{}, xlsx = std::vector<std::string>{};
  Status json;
  tbb::parallel_invoke([&] { if (options.write_csv) csv = WriteCsv(stem + ".csv", table); },
                       [&] { if (options.write_xlsx) xlsx = WriteXlsx(stem + ".xlsx", table); },
                       [&] { if (options.write_json) json = WriteJson(stem + ".json", table); });
  for (Result<std::vector<std::string>>* written : {&csv, &xlsx}) {
    MSP_RETURN_IF_ERROR(written->status());
    result.outputs.insert(result.outputs.end(), (*written)->begin(), (*written)->end());
  }
  MSP_RETURN_IF_ERROR(json);
  if (options.write_json) result.outputs.push_back(stem + ".json");
  result.rows = table.rows.size();
  for (const ResultRow& r : table.rows) {
    if (r.result == "error") ++result.errors;
    else if (r.result == "warning") ++result.warnings;
    else ++result.passed;
  }
  return result;
}

}  // namespace

Result<CompareReport> RunCompare(const CompareOptions& options, const CompareProgress& progress) {
  MSP_ASSIGN_OR_RETURN(std::vector<ComparePairSpec> specs,
                       ResolveComparePairs(options.target_path, options.golden_path, options.output_dir));
  MSP_ASSIGN_OR_RETURN(Mappings mappings, LoadMappings(options));
  CompareReport report;
  for (const ComparePairSpec& spec : specs) {
    MSP_ASSIGN_OR_RETURN(PairResult pair, ComparePair(spec, options, mappings, progress));
    report.pairs.push_back(std::move(pair));
  }
  return report;
}

}  // namespace msprobe::compare
