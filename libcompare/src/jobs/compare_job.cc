#include "msprobe/compare/jobs/compare_job.h"

#include <fmt/format.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <ctime>
#include <exception>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <tuple>
#include <unordered_map>

#include "msprobe/compare/first_diff/api_diff_check.h"
#include "jobs/compare_inputs_internal.h"
#include "jobs/run_report_internal.h"
#include "first_diff/compare_result_json_internal.h"
#include "msprobe/compare/output/csv_writer.h"
#include "msprobe/compare/rows/flatten.h"
#include "msprobe/compare/output/json_writer.h"
#include "msprobe/compare/rows/layer_mapping.h"
#include "msprobe/compare/rows/match.h"
#include "msprobe/compare/rows/result_builder.h"
#include "msprobe/compare/output/result_table.h"
#include "msprobe/compare/metrics/stats_diff.h"
#include "msprobe/compare/metrics/tensor_compare.h"
#include "msprobe/compare/metrics/verdict.h"
#include "msprobe/compare/output/xlsx_writer.h"
#include "output/output_timestamp_internal.h"
#include "msprobe/dump/framework/dump_json.h"
#include "msprobe/dump/framework/dump_layout.h"
#include "msprobe/dump/io/output_location.h"
#include "output/ordered_blocks_internal.h"
#include "jobs/pair_outputs_internal.h"
#include "rows/vector_pool_internal.h"
#include "report/run_html_internal.h"  // --html

namespace msprobe::compare {
namespace {

namespace fs = std::filesystem;

bool IsMindSpore(const std::string& framework) { return framework == "mindspore" || framework == "mindtorch"; }

// docs/compare.md §1.2: pytorch vs pytorch, or a MindSpore target against MindSpore or PyTorch.
Status CheckFrameworks(const FlatDump& npu, const FlatDump& bench, const CompareOptions& options) {
  const bool ok = (npu.framework == "pytorch" && bench.framework == "pytorch") ||
                  (IsMindSpore(npu.framework) && (bench.framework == "pytorch" || bench.framework == "mindspore"));
  if (!ok) {
    return Status::InvalidInput(npu.json_path, fmt::format("cannot compare a {} dump with a {} dump ({})", npu.framework,
                                                           bench.framework, bench.json_path));
  }
  if (options.layer_mapping && npu.framework == "pytorch") {
    return Status::InvalidInput(npu.json_path, "-lm maps a MindSpore model's layers to PyTorch ones; this target is a PyTorch dump");
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
  LayerMapping layer;
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
  if (options.layer_mapping) {
    MSP_ASSIGN_OR_RETURN(m.layer, LoadLayerMapping(options.layer_mapping_yaml));
  }
  return m;
}

using Clock = std::chrono::steady_clock;
using internal::DiffRow;
using internal::PairOutcome;
using internal::PairOutputs;

constexpr char kNoRows[] = "no rows to compare on one side (msprobe writes no file then)";

// -da compares statistics even for tensor dumps (msprobe downgrades ALL to SUMMARY).
CompareMode ComparedMode(const CompareOptions& options, CompareMode mode) {
  return options.diff_analyze && mode == CompareMode::kTensor ? CompareMode::kSummary : mode;
}

// Whether a pair can stream its target (docs/compare.md §6.1): the rows match on their own keys
// (no -fm queue, no -am/-cm/-dm/-lm mapping, which look at all rows at once), and the golden dump
// says, before its data, that it holds statistics (or -da compares it as such).
bool MayStream(const CompareOptions& options, const ComparePairSpec& spec) {
  if (options.stream_batch_rows == 0 || options.fuzzy_match || !options.data_mapping.empty() || options.cell_mapping ||
      options.api_mapping || options.layer_mapping) {
    return false;
  }
  const std::optional<DumpJsonHeader> golden = HeaderBeforeData(spec.golden_json);
  return golden && (golden->task == "statistics" || (options.diff_analyze && golden->task == "tensor"));
}

// "rank0", "proc12", or the target json for a file pair.
std::string PairLabel(const ComparePairSpec& spec) { return spec.suffix.empty() ? spec.target_json : spec.suffix.substr(1); }

PairOutcome NewOutcome(const ComparePairSpec& spec) {
  PairOutcome outcome;
  outcome.result.target_json = spec.target_json;
  outcome.result.golden_json = spec.golden_json;
  outcome.result.label = PairLabel(spec);
  return outcome;
}

// The statistics diffs or md5 columns of the rows made from these pairs.
void FillStatistics(const std::vector<OpRow>& npu, const std::vector<OpRow>& bench, const std::vector<RowPair>& pairs,
                    ResultTable* table) {
  if (table->mode == CompareMode::kSummary) {
    tbb::parallel_for(size_t{0}, table->rows.size(), [&](size_t i) { FillStatsDiff(&table->rows[i]); });
    return;
  }
  for (size_t i = 0; i < pairs.size(); ++i) {
    FillMd5(&table->rows[i], npu[pairs[i].npu].md5, pairs[i].bench ? bench[*pairs[i].bench].md5 : "N/A");
  }
}

// Fills each row's six metrics; returns how many rows had a tensor file that could not be read
// (missing, refused or unreadable: msprobe's "unsupported" row) and why the first of them failed.
std::pair<uint64_t, std::string> ComputeTensorMetrics(const FlatDump& npu, const FlatDump& bench,
                                                      std::vector<ResultRow>* rows,
                                                      const std::function<void(uint64_t, uint64_t)>& progress) {
  const std::string npu_dir = TensorDataDir(npu.json_path), bench_dir = TensorDataDir(bench.json_path);
  std::atomic<uint64_t> done{0};
  std::vector<Status> unreadable(rows->size());
  tbb::parallel_for(size_t{0}, rows->size(), [&](size_t i) {
    ResultRow& r = (*rows)[i];
    TensorCompareInput input{r.npu_data_name, r.bench_data_name, r.matched, npu_dir, bench_dir};
    const std::array<Cell, 6> metrics = CompareTensors(input, {}, &unreadable[i]);
    r.metrics.assign(metrics.begin(), metrics.end());
    if (progress) progress(++done, rows->size());
  });
  std::pair<uint64_t, std::string> count;
  for (const Status& s : unreadable) {
    if (s.ok()) continue;
    if (count.first++ == 0) count.second = s.ToString();  // the first in row order
  }
  return count;
}

// The P2POp columns of -da (docs/compare.md §8.1). msprobe aligns the bench side by row position, which
// is the matched row whenever both dumps have the same rows; we take the matched bench row.
std::vector<P2pColumns> P2pOf(const std::vector<OpRow>& npu, const std::vector<OpRow>& bench,
                              const std::vector<RowPair>& pairs) {
  const auto or_none = [](const std::string& s) { return s.empty() ? std::string("None") : s; };
  std::vector<P2pColumns> p2p(pairs.size());
  tbb::parallel_for(size_t{0}, pairs.size(), [&](size_t i) {
    const OpRow& n = npu[pairs[i].npu];
    p2p[i].npu_op = or_none(n.p2p_op);
    p2p[i].npu_peer = or_none(n.p2p_peer);
    if (pairs[i].bench) {
      const OpRow& b = bench[*pairs[i].bench];
      p2p[i].bench_op = or_none(b.p2p_op);
      p2p[i].bench_peer = or_none(b.p2p_peer);
    }
  });
  return p2p;
}

class CompareRun {
 public:
  CompareRun(const CompareOptions& options, const Mappings& mappings, const CompareProgress& progress)
      : options_(options), mappings_(mappings), progress_(progress) {}

  // Safe to call for several pairs at once: reads only the options and mappings.
  Result<PairOutcome> ComparePair(const ComparePairSpec& spec) const;
  void Record(PairOutcome outcome);
  Result<CompareReport> Finish() &&;

 private:
  // The matching of a pair of these dumps (their kind and frameworks, and the run's mappings).
  MatchOptions PairMatchOptions(const FlatDump& npu, const FlatDump& bench) const;
  // A pair's outputs, named with the time they are opened.
  PairOutputs OpenOutputs(const ComparePairSpec& spec, bool is_debug) const;
  // The pair in memory: both dumps flattened, matched and compared at once.
  Result<PairOutcome> CompareInMemory(const ComparePairSpec& spec, const std::string& stack, Clock::time_point start,
                                      std::optional<FlatDump> bench) const;
  // The pair streamed, or nullopt when it turns out to need the whole target at once.
  Result<std::optional<PairOutcome>> CompareStreamed(const ComparePairSpec& spec, const std::string& stack,
                                                     Clock::time_point start, FlatDump* bench) const;
  Status AnalyzeFirstDiff();

  const CompareOptions& options_;
  const Mappings& mappings_;
  const CompareProgress& progress_;
  CompareReport report_;
  std::vector<RankDiffs> ranks_;       // -da: one per compared pair
  std::vector<size_t> rank_pairs_;     // the pair of each entry of ranks_
  std::vector<std::unordered_map<size_t, DiffRow>> diff_rows_;  // per entry of ranks_: its differing rows
  struct PendingXlsx {
    size_t pair;
    XlsxResultStream xlsx;
    bool marked = false;
  };
  std::vector<PendingXlsx> pending_xlsx_;
  HtmlReport html_;                    // --html: a part per pair, written by Finish
  mutable std::mutex directories_mutex_;
  mutable internal::VectorPool<OpRow> op_rows_;  // the row vectors of pairs done, for the next pairs
  mutable internal::VectorPool<ResultRow> result_rows_;
};

MatchOptions CompareRun::PairMatchOptions(const FlatDump& npu, const FlatDump& bench) const {
  MatchOptions match = mappings_.match;
  match.is_debug = npu.is_debug;
  match.cross_framework = IsMindSpore(npu.framework) && bench.framework == "pytorch";
  if (!options_.data_mapping.empty()) match.data_mapping = &mappings_.data;
  if (options_.cell_mapping) match.cell_mapping = &mappings_.cell;
  if (options_.api_mapping) match.api_mapping = &mappings_.api;
  return match;
}

Result<PairOutcome> CompareRun::ComparePair(const ComparePairSpec& spec) const {
  const Clock::time_point start = Clock::now();
  std::string stack = options_.stack_path;
  if (stack.empty()) {
    const fs::path beside = fs::path(spec.target_json).parent_path() / "stack.json";
    std::error_code ec;
    if (fs::is_regular_file(beside, ec)) stack = beside.string();
  }
  if (!MayStream(options_, spec)) return CompareInMemory(spec, stack, start, std::nullopt);
  MSP_ASSIGN_OR_RETURN(FlatDump bench, FlattenDump(spec.golden_json, "", op_rows_.Take()));
  if (!bench.rows.empty() && ComparedMode(options_, bench.mode) != CompareMode::kTensor) {
    MSP_ASSIGN_OR_RETURN(std::optional<PairOutcome> streamed, CompareStreamed(spec, stack, start, &bench));
    if (streamed) {
      op_rows_.Give(&bench.rows);
      return std::move(*streamed);
    }
  }
  return CompareInMemory(spec, stack, start, std::move(bench));
}

PairOutputs CompareRun::OpenOutputs(const ComparePairSpec& spec, bool is_debug) const {
  const std::string ts = OutputTimestamp();
  const fs::path dir(spec.output_dir);
  // msprobe names the -da json "compare_result" + suffix whatever the json kind.
  return PairOutputs(options_, spec, directories_mutex_,
                     (dir / ((is_debug ? "debug_compare_result" : "compare_result") + spec.suffix + "_" + ts)).string(),
                     (dir / ("compare_result" + spec.suffix + "_" + ts + ".json")).string(), PairLabel(spec));
}

Result<PairOutcome> CompareRun::CompareInMemory(const ComparePairSpec& spec, const std::string& stack,
                                                Clock::time_point start, std::optional<FlatDump> bench_flat) const {
  PairOutcome outcome = NewOutcome(spec);
  PairResult& result = outcome.result;
  // The two sides parse independently: one core each.
  Result<FlatDump> npu_flat = Status::Internal("", "not run"), bench_parsed = Status::Internal("", "not run");
  if (bench_flat) {
    npu_flat = FlattenDump(spec.target_json, stack, op_rows_.Take());
    bench_parsed = std::move(*bench_flat);
  } else {
    tbb::parallel_invoke([&] { npu_flat = FlattenDump(spec.target_json, stack, op_rows_.Take()); },
                         [&] { bench_parsed = FlattenDump(spec.golden_json, "", op_rows_.Take()); });
  }
  MSP_ASSIGN_OR_RETURN(FlatDump npu, std::move(npu_flat));
  MSP_ASSIGN_OR_RETURN(FlatDump bench, std::move(bench_parsed));
  MSP_RETURN_IF_ERROR(CheckFrameworks(npu, bench, options_));
  if (npu.rows.empty() || bench.rows.empty()) {
    result.skipped_reason = kNoRows;
    return outcome;
  }
  MatchOptions match = PairMatchOptions(npu, bench);
  DataMapping layer_rows;  // -lm: this pair's row mapping, from both module trees
  if (options_.layer_mapping) {
    MSP_ASSIGN_OR_RETURN(LayerDumpInfo npu_layers, ReadLayerDumpInfo(spec.target_json, npu.framework));
    MSP_ASSIGN_OR_RETURN(LayerDumpInfo bench_layers, ReadLayerDumpInfo(spec.golden_json, bench.framework));
    MSP_ASSIGN_OR_RETURN(auto entry_pairs, PairLayerEntries(npu_layers, bench_layers, mappings_.layer));
    layer_rows = LayerDataMapping(entry_pairs, npu.rows, bench.rows);
    match.data_mapping = &layer_rows;
  }
  const std::vector<RowPair> pairs = MatchRows(npu.rows, bench.rows, match);

  ResultTable table;
  table.mode = ComparedMode(options_, npu.mode);
  table.with_stack = !stack.empty();
  table.rows = BuildResultRows(&npu.rows, &bench.rows, pairs, result_rows_.Take());
  if (table.mode == CompareMode::kTensor) {
    const std::string& label = spec.target_json;  // names the pair uniquely, whatever its step
    std::tie(result.unreadable_tensors, result.first_unreadable) = ComputeTensorMetrics(
        npu, bench, &table.rows, [&](uint64_t d, uint64_t t) { if (progress_) progress_(label, d, t); });
  } else {
    FillStatistics(npu.rows, bench.rows, pairs, &table);
  }
  // The flattened dumps are done with once -da has its P2POp columns: free them before the verdicts
  // and writers allocate, so those reuse the memory.
  std::vector<P2pColumns> p2p;
  if (options_.diff_analyze) p2p = P2pOf(npu.rows, bench.rows, pairs);
  tbb::parallel_invoke([&] { op_rows_.Give(&npu.rows); }, [&] { op_rows_.Give(&bench.rows); });
  ApplyVerdicts(&table.rows, table.mode);
  if (options_.attribute && table.mode == CompareMode::kTensor) {
    MSP_ASSIGN_OR_RETURN(result.first_cause, AttributeRows(spec.target_json, spec.golden_json, &table));
  } else if (options_.attribute) {
    AttributeUnknown(&table);
  }
  result.mode = DumpModeName(table.mode);
  PairOutputs outputs = OpenOutputs(spec, npu.is_debug);
  MSP_RETURN_IF_ERROR(outputs.Append(table, p2p));
  result_rows_.Give(&table.rows);
  MSP_RETURN_IF_ERROR(std::move(outputs).Finish(start, &outcome));
  return outcome;
}

Result<std::optional<PairOutcome>> CompareRun::CompareStreamed(const ComparePairSpec& spec, const std::string& stack,
                                                               Clock::time_point start, FlatDump* bench) const {
  PairOutcome outcome = NewOutcome(spec);
  const CompareMode mode = ComparedMode(options_, bench->mode);
  std::optional<FlatDump> first;  // the target's header as its first batch saw it
  MatchOptions match;
  std::optional<BenchMatcher> matcher;
  std::optional<PairOutputs> outputs;
  const auto compare_batch = [&](const FlatDump& header, std::vector<OpRow>* rows) -> Status {
    if (!first) {
      first = header;
      match = PairMatchOptions(header, *bench);
      matcher.emplace(bench->rows, match);
      outputs.emplace(OpenOutputs(spec, header.is_debug));
    }
    const std::vector<RowPair> pairs = matcher->Match(*rows);
    ResultTable table;
    table.mode = mode;
    table.with_stack = !stack.empty();
    table.rows = BuildResultRows(rows, &bench->rows, pairs, {}, /*bench_reused=*/true);
    FillStatistics(*rows, bench->rows, pairs, &table);
    std::vector<P2pColumns> p2p;
    if (options_.diff_analyze) p2p = P2pOf(*rows, bench->rows, pairs);
    ApplyVerdicts(&table.rows, table.mode);
    if (options_.attribute) AttributeUnknown(&table);
    return outputs->Append(table, p2p);
  };
  MSP_ASSIGN_OR_RETURN(FlatDump npu, StreamFlatDumpAhead(spec.target_json, stack, options_.stream_batch_rows, compare_batch));
  MSP_RETURN_IF_ERROR(CheckFrameworks(npu, *bench, options_));
  if (!first) {
    outcome.result.skipped_reason = kNoRows;
    return std::optional<PairOutcome>(std::move(outcome));
  }
  // A header member after "data" that changes how the rows were read, or -da batches that a whole
  // table would check differently: compare again in memory (the files written so far are dropped).
  if (npu.is_debug != first->is_debug || npu.framework != first->framework || outputs->split_api()) {
    return std::optional<PairOutcome>();
  }
  outcome.result.mode = DumpModeName(mode);
  outcome.result.streamed = true;
  MSP_RETURN_IF_ERROR(std::move(*outputs).Finish(start, &outcome));
  return std::optional<PairOutcome>(std::move(outcome));
}

void CompareRun::Record(PairOutcome outcome) {
  const size_t pair = report_.pairs.size();
  report_.pairs.push_back(std::move(outcome.result));
  if (outcome.junit) report_.junit.push_back(std::move(*outcome.junit));
  if (outcome.rank) {
    ranks_.push_back(std::move(*outcome.rank));
    rank_pairs_.push_back(pair);
    diff_rows_.push_back(std::move(outcome.diff_rows));
  }
  if (outcome.pending_xlsx) pending_xlsx_.push_back(PendingXlsx{pair, std::move(*outcome.pending_xlsx)});
  if (outcome.html_part) html_.AddPart(std::move(*outcome.html_part));
}

Status CompareRun::AnalyzeFirstDiff() {
  report_.diff_analyzed = true;
  // msprobe reads the per-rank files in rank order.
  std::vector<size_t> order(ranks_.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return ranks_[a].rank < ranks_[b].rank; });
  std::vector<RankDiffs> sorted;
  std::vector<size_t> sorted_pairs, sorted_entries;
  for (size_t i : order) {
    sorted.push_back(std::move(ranks_[i]));
    sorted_pairs.push_back(rank_pairs_[i]);
    sorted_entries.push_back(i);
  }
  const FirstDiff diff = FindFirstDiff(sorted);
  if (diff.stage == DiffStage::kNone) return Status::Ok();
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch());
  const std::string path = (fs::path(options_.output_dir) / fmt::format("diff_analyze_{}.json", ns.count())).string();
  MSP_RETURN_IF_ERROR(WriteDiffAnalyzeJson(path, sorted, diff));
  FirstDiffReport& report = report_.first_diff;
  report.stage = diff.stage;
  report.analyze_file = path;
  for (const DiffNodeRef& node : diff.nodes) {
    const DiffOp& op = sorted[node.rank_pos].ops[node.op];
    const size_t pair_idx = sorted_pairs[node.rank_pos];
    const PairResult& pair = report_.pairs[pair_idx];
    const DiffRow& diff_row = diff_rows_[sorted_entries[node.rank_pos]].at(op.row);
    RowRef ref = diff_row.ref;
    ref.file = pair.RowFile();
    for (PendingXlsx& pending : pending_xlsx_) {
      if (pending.pair != pair_idx || pending.marked) continue;
      pending.xlsx.MarkFirstDiff(op.row, diff_row.ref.npu_name, diff_row.stack);
      pending.marked = true;
    }
    report.nodes.push_back(std::move(ref));
    report.ranks.push_back(sorted[node.rank_pos].rank);
  }
  return Status::Ok();
}

Result<CompareReport> CompareRun::Finish() && {
  if (options_.diff_analyze) MSP_RETURN_IF_ERROR(AnalyzeFirstDiff());
  // One workbook per rank, each on its own thread: libxlsxwriter writes a workbook serially.
  std::vector<Result<std::vector<std::string>>> written(pending_xlsx_.size(), std::vector<std::string>{});
  tbb::parallel_for(size_t{0}, pending_xlsx_.size(),
                    [&](size_t i) { written[i] = std::move(pending_xlsx_[i].xlsx).Commit(); });
  for (size_t i = 0; i < pending_xlsx_.size(); ++i) {
    MSP_RETURN_IF_ERROR(written[i].status());
    std::vector<std::string>& outputs = report_.pairs[pending_xlsx_[i].pair].outputs;
    outputs.insert(outputs.end(), written[i]->begin(), written[i]->end());
  }
  if (options_.write_html) {
    MSP_ASSIGN_OR_RETURN(report_.html_file, internal::WriteRunHtml(options_, report_, html_));
  }
  MSP_RETURN_IF_ERROR(WriteRunReports(options_, &report_));
  return std::move(report_);
}

// Two pairs at once keep both cores busy through each pair's serial steps, at twice the memory: a
// statistics compare held in memory peaks at about 6 bytes per byte of dump.json, 7 with two pairs
// and the row storage they pass on (VectorPool). So two only when the two largest pairs' dump.json
// files, at that rate, fit in half the machine's memory. A streamed pair needs far less (about 1.5
// bytes per byte of the golden json, docs/compare.md §6.1), but may fall back to the whole compare.
size_t PairsInFlight(const std::vector<ComparePairSpec>& specs) {
  if (specs.size() < 2) return 1;
  constexpr uint64_t kMemoryPerJsonByte = 7;
  uint64_t largest = 0, second = 0;
  for (const ComparePairSpec& spec : specs) {
    std::error_code ec;
    uint64_t bytes = 0;
    for (const std::string& path : {spec.target_json, spec.golden_json}) {
      const uintmax_t size = fs::file_size(path, ec);
      if (!ec) bytes += size;
    }
    if (bytes > largest) {
      second = largest;
      largest = bytes;
    } else if (bytes > second) {
      second = bytes;
    }
  }
  const long pages = ::sysconf(_SC_PHYS_PAGES), page_size = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return 1;
  const uint64_t memory = static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_size);
  return (largest + second) * kMemoryPerJsonByte <= memory / 2 ? 2 : 1;
}

}  // namespace

Result<CompareReport> RunCompare(const CompareOptions& options, const CompareProgress& progress) {
  const std::vector<std::string> inputs = {options.target_path, options.golden_path, options.stack_path};
  MSP_RETURN_IF_ERROR(CheckOutputOutsideInputs(options.output_dir, /*is_dir=*/true, inputs));
  if (!options.junit_path.empty()) MSP_RETURN_IF_ERROR(CheckOutputOutsideInputs(options.junit_path, false, inputs));
  MSP_ASSIGN_OR_RETURN(std::vector<ComparePairSpec> specs,
                       ResolveComparePairs(options.target_path, options.golden_path, options.output_dir));
  MSP_ASSIGN_OR_RETURN(Mappings mappings, LoadMappings(options));
  SummedProgress summed(progress);
  const CompareProgress summed_progress = summed.callback();  // the run keeps a reference
  CompareRun run(options, mappings, summed_progress);
  // Pairs are compared on all cores, up to PairsInFlight at once, and recorded in order; the first
  // failure in pair order is the one reported, and no pair starts after it is seen (a pair already
  // running still finishes and writes its files). An exception is caught in its pair and rethrown
  // here in pair order: escaping the pipeline, it would cancel the other pair's nested work
  // half-way, and that pair's files would be committed incomplete.
  struct Token {
    Result<PairOutcome> outcome = Status::Internal("", "not run");
    std::exception_ptr exception;
  };
  size_t next = 0;
  std::atomic<bool> threw{false};  // no pair starts once one has thrown, whatever its order
  std::exception_ptr thrown;
  const Status failed = internal::MapInOrder<size_t, std::shared_ptr<Token>>(
      PairsInFlight(specs),
      [&](size_t* i) {
        if (next == specs.size() || threw.load()) return false;
        *i = next++;
        return true;
      },
      [&](size_t i) {
        auto token = std::make_shared<Token>();
        try {
          token->outcome = run.ComparePair(specs[i]);
        } catch (...) {
          token->exception = std::current_exception();
          threw.store(true);
        }
        return token;
      },
      [&](const std::shared_ptr<Token>& token) -> Status {
        if (token->exception) {
          thrown = token->exception;
          return Status::Internal("", "a pair threw");  // rethrown below
        }
        MSP_RETURN_IF_ERROR(token->outcome.status());
        run.Record(std::move(*token->outcome));
        return Status::Ok();
      });
  if (thrown) std::rethrow_exception(thrown);
  MSP_RETURN_IF_ERROR(failed);
  return std::move(run).Finish();
}

std::optional<GateFailure> EvaluateGates(const CompareOptions& options, const CompareReport& report) {
  if (options.fail_on) {
    for (const PairResult& pair : report.pairs) {
      const std::optional<RowRef>& row = *options.fail_on == Verdict::kError ? pair.first_error : pair.first_warning;
      if (row) return GateFailure{fmt::format("--fail-on {}", VerdictName(*options.fail_on)), *row};
    }
  }
  if (options.fail_on_first_diff && !report.first_diff.nodes.empty()) {
    return GateFailure{"--fail-on-first-diff", report.first_diff.nodes.front()};
  }
  return std::nullopt;
}

}  // namespace msprobe::compare
