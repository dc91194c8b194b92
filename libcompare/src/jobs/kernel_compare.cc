// Kernel-dump compare (docs/kernel_dump.md §6). Pairing as msprobe's ms_graph_compare, with our order: target
// rows by timestamp then name, golden-only rows after them (msprobe's outer merge sorts by key).
#include "msprobe/compare/jobs/kernel_compare.h"

#include <fmt/format.h>
#include <tbb/parallel_invoke.h>
#include <tbb/parallel_for.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <map>
#include <optional>

#include "jobs/output_paths_internal.h"
#include "jobs/run_report_internal.h"
#include "msprobe/compare/metrics/kernel_accuracy.h"
#include "msprobe/compare/metrics/thresholds.h"
#include "msprobe/compare/output/csv_writer.h"
#include "msprobe/compare/output/json_writer.h"
#include "output/output_timestamp_internal.h"
#include "msprobe/compare/metrics/tensor_compare.h"
#include "msprobe/compare/output/xlsx_writer.h"
#include "msprobe/dump/kernel/statistic_csv.h"
#include "msprobe/dump/tensor/tensor_source.h"
#include "msprobe/dump/tensor/tensor_stats.h"

namespace msprobe::compare {
namespace {

namespace fs = std::filesystem;


enum class Mode { kNone, kNpy, kStatistic };

// One tensor of one side: a file (NPY mode) or a statistic.csv row (STATISTIC mode).
struct Record {
  std::string key;
  std::string op;  // "{op_name}.{task_id}": the kernel launch, the row's api (JUnit's testcase)
  uint64_t timestamp = 0;
  const KernelDumpFile* file = nullptr;
  StatisticRecord stat;
  std::string csv_file;
};

struct Side {
  Mode mode = Mode::kNone;
  std::vector<Record> records;
};

std::string Key(std::string_view op_name, std::string_view task, std::string_view io, std::string_view slot) {
  return fmt::format("{}.{}.{}.{}", op_name, task, io, slot);
}

Result<Side> CollectSide(const std::vector<KernelDumpDir>& dirs) {
  Side side;
  for (const KernelDumpDir& dir : dirs) {
    if (!dir.tensors.empty()) side.mode = Mode::kNpy;
  }
  if (side.mode == Mode::kNone) {
    for (const KernelDumpDir& dir : dirs) {
      if (!dir.statistic_csv.empty()) side.mode = Mode::kStatistic;
    }
  }
  for (const KernelDumpDir& dir : dirs) {
    if (side.mode == Mode::kNpy) {
      for (const KernelDumpFile& f : dir.tensors) {
        Record r;
        r.key = Key(f.name.op_name, std::to_string(f.name.task_id), f.name.io(), std::to_string(f.name.slot));
        r.op = fmt::format("{}.{}", f.name.op_name, f.name.task_id);
        r.timestamp = f.name.timestamp;
        r.file = &f;
        side.records.push_back(std::move(r));
      }
    } else if (!dir.statistic_csv.empty()) {
      MSP_ASSIGN_OR_RETURN(StatisticCsv csv, ReadStatisticCsv(dir.statistic_csv));
      MSP_RETURN_IF_ERROR(CheckPairingColumns(csv, dir.statistic_csv));
      std::vector<StatisticRecord> rows = StatisticRecords(csv);
      for (size_t i = 0; i < rows.size(); ++i) {
        Record r;
        r.key = Key(rows[i].op_name, rows[i].task_id, rows[i].io, rows[i].slot);
        r.op = fmt::format("{}.{}", rows[i].op_name, rows[i].task_id);
        char* end = nullptr;
        r.timestamp = std::strtoull(rows[i].timestamp.c_str(), &end, 10);
        if (rows[i].timestamp.empty() || *end != '\0') {
          return Status::InvalidInput(dir.statistic_csv, "line " + std::to_string(csv.row_lines[i]) +
                                                             ": Timestamp '" + rows[i].timestamp + "' is not a number");
        }
        r.stat = std::move(rows[i]);
        r.csv_file = dir.statistic_csv;
        side.records.push_back(std::move(r));
      }
    }
  }
  std::stable_sort(side.records.begin(), side.records.end(),
                   [](const Record& a, const Record& b) { return a.timestamp < b.timestamp; });
  return side;
}

// A row's Result, from its Accuracy Reached or Not: Yes passes, No is an error, anything else (None: a
// metric that is not a number; Unmatched; checks failed, the cell empty) a warning. The xlsx row
// colours, the counts of summary.json, --fail-on and JUnit all read it (docs/kernel_dump.md §6.4).
Verdict ResultOf(Accuracy accuracy) {
  return accuracy == Accuracy::kYes ? Verdict::kPass : accuracy == Accuracy::kNo ? Verdict::kError : Verdict::kWarning;
}

struct TensorSide {
  std::optional<TensorInfo> info;
  std::optional<TensorStats> stats;
};

// Reads one side's tensor and its statistics (in double; msprobe uses the native dtype, see
// docs/compatibility.md). An unreadable file becomes a message.
TensorSide LoadSide(const Record* r, std::string* message) {
  TensorSide side;
  if (!r) return side;
  Result<TensorInfo> info = ReadKernelDumpTensor(*r->file);
  if (!info.ok()) {
    *message += info.status().ToString() + "\n";
    return side;
  }
  StatsOptions options;
  options.crc32 = false;
  options.xor64 = false;
  Result<TensorSource> source = TensorSource::Open(*info);
  Result<TensorStats> stats = source.ok() ? ComputeStats(*source, options) : Result<TensorStats>(source.status());
  if (!stats.ok()) {
    *message += stats.status().ToString() + "\n";
    return side;
  }
  side.info = std::move(*info);
  side.stats = *stats;
  return side;
}

// The rows whose files could not be read, and the first one's reason (its load error, the row's first
// message, without msprobe's line break).
void CountUnreadable(const ResultTable& table, PairResult* result) {
  for (const ResultRow& row : table.rows) {
    if (!row.unreadable || result->unreadable_tensors++ > 0) continue;
    std::string_view reason = row.err_messages.front();
    result->first_unreadable = std::string(reason.substr(0, reason.find('\n')));
  }
}

void SetStats(const TensorSide& side, std::array<Cell, 4>* cells) {
  const double TensorStats::*fields[] = {&TensorStats::max, &TensorStats::min, &TensorStats::mean, &TensorStats::norm};
  for (size_t i = 0; i < cells->size(); ++i) {
    (*cells)[i] = side.stats && side.stats->has_values ? Cell::Float((*side.stats).*fields[i]) : Cell();
  }
}

// The row's Err_message is its messages concatenated, each with its own "\n" where msprobe has one.
ResultRow NpyRow(const Record* target, const Record* golden) {
  ResultRow row;
  std::vector<std::string>& messages = row.err_messages;
  std::string load_errors;
  const TensorSide n = LoadSide(target, &load_errors), b = LoadSide(golden, &load_errors);
  if (!load_errors.empty()) {
    // A row without a counterpart is not compared already (unmatched): unreadable counts only those
    // the file kept from a compare.
    row.unreadable = target != nullptr && golden != nullptr;
    messages.push_back(std::move(load_errors));
  }
  // npy_data_check (§6.2), every failure appended.
  if (!n.info || !b.info) {
    messages.emplace_back("Dump file is not ndarray.\n");
  } else if (n.info->Numel() == 0 || b.info->Numel() == 0) {
    messages.emplace_back("This is empty data, can not compare.\n");
  } else {
    if (n.info->shape.empty() || b.info->shape.empty()) messages.emplace_back("This is type of scalar data, can not compare.\n");
    if (n.info->shape != b.info->shape) messages.emplace_back("Shape of NPU and bench Tensor do not match.\n");
    if (n.info->dtype != b.info->dtype) messages.emplace_back("Dtype of NPU and bench Tensor do not match. Skipped.\n");
  }
  row.metrics.resize(6);
  if (messages.empty()) {
    TensorCompareOptions options;
    options.squeeze = false;  // docs/kernel_dump.md §6.2: no squeeze, unlike the framework compare
    const std::array<Cell, 6> cells = CompareTensorInfos(*n.info, *b.info, options);
    if (cells[kCosine].IsText("N/A")) {
      messages.emplace_back("The position of inf or nan in NPU and bench Tensor do not match.\n");
    } else {
      row.metrics.assign(cells.begin(), cells.end());
      if (cells[kCosine].IsText("Nan")) {
        messages.emplace_back(
            n.stats->norm <= kCosineZeroNorm   ? "Cannot compare by Cosine Similarity, All the data is Zero in npu dump data."
            : b.stats->norm <= kCosineZeroNorm ? "Cannot compare by Cosine Similarity, All the data is Zero in Bench dump data."
                                             : "Cannot compare by Cosine Similarity, the dump data has NaN.");
      }
      row.accuracy = NpyAccuracy(cells[kCosine], cells[kMaxAbsErr]);
    }
  }
  row.target_name = target ? target->file->path : "";
  row.golden_name = golden ? golden->file->path : "";
  row.matched = target && golden;
  row.golden_only = !target;
  row.target_dtype = n.info ? std::string(Name(n.info->dtype)) : "";
  row.golden_dtype = b.info ? std::string(Name(b.info->dtype)) : "";
  row.target_shape = n.info ? n.info->ShapeString() : "";
  row.golden_shape = b.info ? b.info->ShapeString() : "";
  SetStats(n, &row.target_stats);
  SetStats(b, &row.golden_stats);
  row.result = ResultOf(row.accuracy);
  return row;
}

// A statistic.csv value as msprobe reads it: "null"/"False" → 0, "True" → 1, then float32.
float StatValue(const std::string& text) {
  if (text == "null" || text == "False") return 0;
  if (text == "True") return 1;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0') return NAN;
  return static_cast<float>(v);
}

// str() of a numpy float32: the shortest repr that round-trips, with ".0" on integral values.
std::string Float32Str(float v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  std::string s = fmt::format("{}", v);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

// MaxRelativeErr… of §6.3: "N/A" when golden is 0, "Nan" for NaN, else |diff / golden|·100 "%".
Cell RelativeCell(float diff, float golden) {
  if (golden == 0) return Cell::NA();
  const float rel = std::fabs(diff / golden) * 100.0f;
  if (std::isnan(rel)) return Cell::Nan();
  return Cell::Text(Float32Str(rel) + "%");
}

ResultRow StatisticRow(const Record* target, const Record* golden) {
  ResultRow row;
  row.target_name = target ? target->key : "";
  row.golden_name = golden ? golden->key : "";
  row.matched = target && golden;
  row.golden_only = !target;
  const StatisticRecord empty;
  const StatisticRecord& n = target ? target->stat : empty;
  const StatisticRecord& b = golden ? golden->stat : empty;
  const float nv[4] = {StatValue(n.max), StatValue(n.min), StatValue(n.mean), StatValue(n.norm)};
  const float bv[4] = {StatValue(b.max), StatValue(b.min), StatValue(b.mean), StatValue(b.norm)};
  std::vector<std::string>& messages = row.err_messages;
  if (!target || !golden) messages.emplace_back("Dump file not found.\n");
  if (n.shape.empty() || n.shape != b.shape) messages.emplace_back("Tensor shapes do not match.\n");
  if (n.dtype != b.dtype) messages.emplace_back("Dtype of NPU and bench Tensor do not match.\n");
  row.target_dtype = n.dtype;
  row.golden_dtype = b.dtype;
  row.target_shape = n.shape;
  row.golden_shape = b.shape;
  for (size_t i = 0; i < 4; ++i) {
    row.target_stats[i] = target ? Cell::Float(nv[i]) : Cell();
    row.golden_stats[i] = golden ? Cell::Float(bv[i]) : Cell();
  }
  row.metrics.resize(8);
  if (messages.empty()) {
    for (int i = 0; i < 4; ++i) {
      const float diff = nv[i] - bv[i];  // signed, target - golden
      row.metrics[i] = Cell::Float(diff);
      row.metrics[4 + i] = RelativeCell(diff, bv[i]);
    }
    row.accuracy = StatisticAccuracy(nv[0], bv[0]);
  }
  row.target_data_name = target ? target->csv_file : "";
  row.golden_data_name = golden ? golden->csv_file : "";
  row.result = ResultOf(row.accuracy);
  return row;
}

bool Selected(const std::vector<int64_t>& wanted, int64_t v) {
  return wanted.empty() || std::find(wanted.begin(), wanted.end(), v) != wanted.end();
}

using DirsByRankStep = std::map<std::pair<int64_t, int64_t>, std::vector<KernelDumpDir>>;

Result<DirsByRankStep> GroupDirs(const std::string& root, const KernelCompareOptions& options) {
  MSP_ASSIGN_OR_RETURN(std::vector<KernelDumpDir> dirs, FindKernelDumpDirs(root));
  DirsByRankStep groups;
  for (KernelDumpDir& dir : dirs) {
    if (!dir.rank || !dir.step || !Selected(options.ranks, *dir.rank) || !Selected(options.steps, *dir.step)) continue;
    groups[{*dir.rank, *dir.step}].push_back(std::move(dir));
  }
  return groups;
}

// What the two trees hold that pairs with nothing: a (rank, step) on one side only, and a rank or step
// asked for by --rank/--step that neither side has (docs/kernel_dump.md §6). Never compared.
std::vector<std::string> SkippedKernelInputs(const DirsByRankStep& target, const DirsByRankStep& golden,
                                             const KernelCompareOptions& options) {
  std::vector<std::string> skipped;
  for (const auto& [from, other, side] : {std::tuple{&target, &golden, options.run.golden_path},
                                          std::tuple{&golden, &target, options.run.target_path}}) {
    for (const auto& [rank_step, dirs] : *from) {
      if (other->contains(rank_step)) continue;
      skipped.push_back(fmt::format("{}: rank {} step {} has no counterpart in {}; not compared", dirs.front().path,
                                    rank_step.first, rank_step.second, side));
    }
  }
  for (const bool rank : {true, false}) {
    for (const int64_t id : rank ? options.ranks : options.steps) {
      const auto has = [&](const DirsByRankStep& dirs) {
        return std::any_of(dirs.begin(), dirs.end(),
                           [&](const auto& entry) { return (rank ? entry.first.first : entry.first.second) == id; });
      };
      if (has(target) || has(golden)) continue;
      skipped.push_back(fmt::format("--{} {}: no kernel dump directory of it (among the {} selected) in {} or {}; "
                                    "not compared", rank ? "rank" : "step", id, rank ? "steps" : "ranks",
                                    options.run.target_path, options.run.golden_path));
    }
  }
  return skipped;
}

}  // namespace

Result<ResultTable> CompareKernelDirs(const std::vector<KernelDumpDir>& target_dirs,
                                      const std::vector<KernelDumpDir>& golden_dirs, const Progress& progress) {
  MSP_ASSIGN_OR_RETURN(Side target, CollectSide(target_dirs));
  MSP_ASSIGN_OR_RETURN(Side golden, CollectSide(golden_dirs));
  const std::string where = target_dirs.empty() ? std::string() : target_dirs.front().path;
  if (target.mode == Mode::kNone || golden.mode == Mode::kNone) {
    return Status::InvalidInput(where, "no tensor files and no statistic.csv to compare");
  }
  if (target.mode != golden.mode) {
    return Status::InvalidInput(where, std::string("the target dump holds ") +
                                           (target.mode == Mode::kNpy ? "tensor files" : "only statistic.csv") +
                                           ", the golden dump " +
                                           (golden.mode == Mode::kNpy ? "tensor files" : "only statistic.csv"));
  }
  // Local Index: the occurrence of a key in timestamp order, on each side.
  std::map<std::pair<std::string, size_t>, size_t> golden_index;
  std::map<std::string, size_t> seen;
  for (size_t i = 0; i < golden.records.size(); ++i)
    golden_index[{golden.records[i].key, seen[golden.records[i].key]++}] = i;
  seen.clear();
  std::vector<std::pair<const Record*, const Record*>> pairs;
  std::vector<bool> golden_used(golden.records.size());
  for (const Record& r : target.records) {
    const auto it = golden_index.find({r.key, seen[r.key]++});
    const Record* match = nullptr;
    if (it != golden_index.end()) {
      match = &golden.records[it->second];
      golden_used[it->second] = true;
    }
    pairs.emplace_back(&r, match);
  }
  for (size_t i = 0; i < golden.records.size(); ++i) {
    if (!golden_used[i]) pairs.emplace_back(nullptr, &golden.records[i]);
  }

  ResultTable table;
  const bool npy = target.mode == Mode::kNpy;
  table.mode = npy ? CompareMode::kTensor : CompareMode::kSummary;
  table.layout = ResultLayout::kKernel;
  table.rows.resize(pairs.size());
  std::atomic<uint64_t> done{0};
  tbb::parallel_for(size_t{0}, pairs.size(), [&](size_t i) {
    const auto [n, b] = pairs[i];
    table.rows[i] = npy ? NpyRow(n, b) : StatisticRow(n, b);
    table.rows[i].api = (n ? n : b)->op;
    if (progress) progress("rows", ++done, pairs.size());
  });
  return table;
}

Result<CompareReport> RunKernelCompare(const KernelCompareOptions& options, const JobContext& context) {
  const CompareOptions& run = options.run;
  const std::vector<std::string> inputs = {run.target_path, run.golden_path};
  MSP_RETURN_IF_ERROR(internal::PrepareRunOutputs(run, inputs));
  MSP_ASSIGN_OR_RETURN(DirsByRankStep target, GroupDirs(run.target_path, options));
  MSP_ASSIGN_OR_RETURN(DirsByRankStep golden, GroupDirs(run.golden_path, options));
  const std::string ts = OutputTimestamp();
  SummedProgress summed(context.progress);
  const Progress summed_progress = summed.callback();
  CompareReport report;
  report.skipped_inputs = SkippedKernelInputs(target, golden, options);
  if (const std::optional<JunitSuite> suite = SkippedInputsSuite(run, report.skipped_inputs)) report.junit.push_back(*suite);
  for (const auto& [rank_step, target_dirs] : target) {
    const auto it = golden.find(rank_step);
    if (it == golden.end()) continue;
    const auto start = std::chrono::steady_clock::now();
    PairResult result;
    result.label = fmt::format("rank{}_step{}", rank_step.first, rank_step.second);
    result.target_json = target_dirs.front().path;
    result.golden_json = it->second.front().path;
    const Progress rows_done = [&](std::string_view, uint64_t done, uint64_t total) {
      if (summed_progress) summed_progress(result.label, done, total);
    };
    MSP_ASSIGN_OR_RETURN(ResultTable table, CompareKernelDirs(target_dirs, it->second, rows_done));
    result.mode = DumpModeName(table.mode);
    const std::string stem = (fs::path(run.output_dir) /
                              fmt::format("compare_result_{}_{}_{}", rank_step.first, rank_step.second, ts)).string();
    // The writers only read the table: run them side by side (the xlsx is the slow one).
    Result<std::vector<std::string>> csv = std::vector<std::string>{}, xlsx = std::vector<std::string>{};
    tbb::parallel_invoke([&] { if (run.write_csv) csv = WriteCsv(stem + ".csv", table); },
                         [&] { if (run.write_xlsx) xlsx = WriteXlsx(stem + ".xlsx", table); });
    for (Result<std::vector<std::string>>* files : {&csv, &xlsx}) {
      MSP_RETURN_IF_ERROR(files->status());
      result.outputs.insert(result.outputs.end(), (*files)->begin(), (*files)->end());
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CountUnreadable(table, &result);
    std::optional<JunitSuite> junit = SummarizePair(table, result.RowFile(), seconds, run, &result);
    result.golden_rows = result.matched_rows + result.unmatched.golden;  // golden-only rows are in the table
    if (junit) report.junit.push_back(std::move(*junit));
    report.pairs.push_back(std::move(result));
  }
  if (report.pairs.empty()) {
    return Status::InvalidInput(run.target_path, "no (rank, step) kernel dump directory in common with " + run.golden_path);
  }
  MSP_RETURN_IF_ERROR(WriteRunReports(run, &report));
  return report;
}

}  // namespace msprobe::compare
