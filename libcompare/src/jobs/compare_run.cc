#include "jobs/compare_run_internal.h"

#include <fmt/format.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <tuple>
#include <utility>

#include "first_diff/compare_result_json_internal.h"
#include "jobs/run_report_internal.h"
#include "msprobe/compare/first_diff/api_diff_check.h"
#include "msprobe/compare/metrics/stats_diff.h"
#include "msprobe/compare/metrics/tensor_compare.h"
#include "msprobe/compare/metrics/verdict.h"
#include "msprobe/compare/table/result_table.h"
#include "msprobe/compare/table/stat_columns.h"
#include "msprobe/compare/rows/consistent_match.h"
#include "msprobe/compare/rows/result_builder.h"
#include "msprobe/compare/rows/scratch_rows.h"
#include "msprobe/dump/framework/dump_json.h"
#include "msprobe/dump/framework/dump_layout.h"
#include "output/output_timestamp_internal.h"

namespace msprobe::compare::internal {
namespace {


namespace fs = std::filesystem;

bool IsMindSpore(const std::string& framework) { return framework == "mindspore" || framework == "mindtorch"; }

}  // namespace

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

namespace {
constexpr char kNoRows[] = "no rows to compare on one side (msprobe writes no file then)";
}  // namespace

CompareMode ComparedMode(const CompareOptions& options, CompareMode mode) {
  return options.diff_analyze && mode == CompareMode::kTensor ? CompareMode::kSummary : mode;
}

// The rows match on their own keys (no -fm queue, no -am/-cm/-dm/-lm mapping, which look at all rows
// at once), and the golden dump says, before its data, that it holds statistics (or -da compares it
// as such).
bool MayStream(const CompareOptions& options, const ComparePairSpec& spec) {
  if (options.stream_batch_rows == 0 || options.fuzzy_match || !options.data_mapping.empty() || options.cell_mapping ||
      options.api_mapping || options.layer_mapping || options.consistent != ConsistentBackend::kNone) {
    return false;
  }
  const std::optional<DumpJsonHeader> golden = HeaderBeforeData(spec.golden_json);
  return golden && (golden->task == "statistics" || (options.diff_analyze && golden->task == "tensor"));
}

namespace {

// "rank0", "proc12", or the target json for a file pair.
std::string PairLabel(const ComparePairSpec& spec) { return spec.suffix.empty() ? spec.target_json : spec.suffix.substr(1); }


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

// Fills the six metrics of rows [begin, end); returns, per row, why its tensor file could not be read
// (missing, refused or unreadable: msprobe's "unsupported" row), ok when it could.
std::vector<Status> ComputeTensorMetrics(const FlatDump& npu, const FlatDump& bench, std::vector<ResultRow>* rows,
                                         size_t begin, size_t end, const TensorCompareOptions& options,
                                         const std::function<void(uint64_t, uint64_t)>& progress) {
  const std::string npu_dir = TensorDataDir(npu.json_path), bench_dir = TensorDataDir(bench.json_path);
  std::atomic<uint64_t> done{0};
  std::vector<Status> unreadable(end - begin);
  tbb::parallel_for(begin, end, [&](size_t i) {
    ResultRow& r = (*rows)[i];
    TensorCompareInput input{r.npu_data_name, r.bench_data_name, r.matched, npu_dir, bench_dir, r.npu_valid_rows};
    const std::array<Cell, 6> metrics = CompareTensors(input, options, &unreadable[i - begin]);
    r.metrics.assign(metrics.begin(), metrics.end());
    if (progress) progress(++done, end - begin);
  });
  return unreadable;
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

}  // namespace

PairOutcome NewOutcome(const ComparePairSpec& spec) {
  PairOutcome outcome;
  outcome.result.target_json = spec.target_json;
  outcome.result.golden_json = spec.golden_json;
  outcome.result.label = PairLabel(spec);
  return outcome;
}

Status FinishStreamed(PairOutputs outputs, CompareMode mode, Clock::time_point start, PairOutcome* outcome) {
  outcome->result.mode = DumpModeName(mode);
  outcome->result.streamed = true;
  return std::move(outputs).Finish(start, outcome);
}

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


MatchOptions CompareRun::PairMatchOptions(const FlatDump& npu, const FlatDump& bench) const {
  MatchOptions match = mappings_.match;
  match.is_debug = npu.is_debug;
  match.cross_framework = IsMindSpore(npu.framework) && bench.framework == "pytorch";
  if (!options_.data_mapping.empty()) match.data_mapping = &mappings_.data;
  if (options_.cell_mapping) match.cell_mapping = &mappings_.cell;
  if (options_.api_mapping) match.api_mapping = &mappings_.api;
  return match;
}

std::string CompareRun::StackOf(const ComparePairSpec& spec) const {
  if (!options_.stack_path.empty()) return options_.stack_path;
  const fs::path beside = fs::path(spec.target_json).parent_path() / "stack.json";
  std::error_code ec;
  return fs::is_regular_file(beside, ec) ? beside.string() : std::string();
}

Result<PairOutcome> CompareRun::ComparePair(const ComparePairSpec& spec) const {
  const Clock::time_point start = Clock::now();
  const std::string stack = StackOf(spec);
  std::optional<FlatDump> bench;
  if (MayStream(options_, spec)) {
    MSP_ASSIGN_OR_RETURN(bench, FlattenDump(spec.golden_json, "", op_rows_.Take()));
    if (!bench->rows.empty() && ComparedMode(options_, bench->mode) != CompareMode::kTensor) {
      MSP_ASSIGN_OR_RETURN(std::optional<PairOutcome> streamed, CompareStreamed(spec, stack, start, &*bench));
      if (streamed) {
        op_rows_.Give(&bench->rows);
        return std::move(*streamed);
      }
    }
  }
  // The pair in memory: both dumps flattened, matched and compared at once.
  MSP_ASSIGN_OR_RETURN(PreparedPair prepared, Prepare(spec, stack, start, std::move(bench)));
  if (prepared.skipped) return std::move(prepared.outcome);
  std::vector<MetricSlice> slices;
  if (prepared.table.mode == CompareMode::kTensor) slices.push_back(ComputeSlice(&prepared, 0, prepared.table.rows.size()));
  return Conclude(spec, std::move(prepared), slices);
}

PairOutputs CompareRun::OpenOutputs(const ComparePairSpec& spec, bool is_debug) const {
  const std::string ts = OutputTimestamp();
  const fs::path dir(spec.output_dir);
  // msprobe names the -da json "compare_result" + suffix whatever the json kind.
  return PairOutputs(options_, spec, directories_mutex_,
                     (dir / ((is_debug ? "debug_compare_result" : "compare_result") + spec.suffix + "_" + ts)).string(),
                     (dir / ("compare_result" + spec.suffix + "_" + ts + ".json")).string(), PairLabel(spec));
}

Result<PreparedPair> CompareRun::Prepare(const ComparePairSpec& spec) const {
  return Prepare(spec, StackOf(spec), Clock::now(), std::nullopt);
}

Result<PreparedPair> CompareRun::Prepare(const ComparePairSpec& spec, std::string stack, Clock::time_point start,
                                         std::optional<FlatDump> bench_flat) const {
  PreparedPair p;
  p.outcome = NewOutcome(spec);
  p.stack = std::move(stack);
  p.start = start;
  // The two sides parse independently: one core each.
  Result<FlatDump> npu_flat = Status::Internal("", "not run"), bench_parsed = Status::Internal("", "not run");
  if (bench_flat) {
    npu_flat = FlattenDump(spec.target_json, p.stack, op_rows_.Take());
    bench_parsed = std::move(*bench_flat);
  } else {
    EntryFilter keep;  // --consistent_check reads the training side by msprobe's parse rules
    if (options_.consistent != ConsistentBackend::kNone) keep = VerlParseFilter(options_.consistent);
    tbb::parallel_invoke([&] { npu_flat = FlattenDump(spec.target_json, p.stack, op_rows_.Take(), std::move(keep)); },
                         [&] { bench_parsed = FlattenDump(spec.golden_json, "", op_rows_.Take()); });
  }
  MSP_ASSIGN_OR_RETURN(p.npu, std::move(npu_flat));
  MSP_ASSIGN_OR_RETURN(p.bench, std::move(bench_parsed));
  MSP_RETURN_IF_ERROR(CheckFrameworks(p.npu, p.bench, options_));
  if (p.npu.rows.empty() || p.bench.rows.empty()) {
    p.outcome.result.skipped_reason = kNoRows;
    p.skipped = true;
    return p;
  }
  p.table.mode = ComparedMode(options_, p.npu.mode);
  p.table.with_stack = !p.stack.empty();
  if (options_.consistent != ConsistentBackend::kNone) {
    MSP_RETURN_IF_ERROR(CheckConsistentDumps(p.npu, p.bench));
    const ConsistentOptions consistent{options_.consistent, options_.write_csv ? ";  " : ";\n"};
    MSP_ASSIGN_OR_RETURN(p.table.rows, BuildConsistentRows(p.npu.rows, p.bench.rows, consistent, spec.target_json));
    return p;
  }
  MatchOptions match = PairMatchOptions(p.npu, p.bench);
  DataMapping layer_rows;  // -lm: this pair's row mapping, from both module trees
  if (options_.layer_mapping) {
    MSP_ASSIGN_OR_RETURN(LayerDumpInfo npu_layers, ReadLayerDumpInfo(spec.target_json, p.npu.framework));
    MSP_ASSIGN_OR_RETURN(LayerDumpInfo bench_layers, ReadLayerDumpInfo(spec.golden_json, p.bench.framework));
    MSP_ASSIGN_OR_RETURN(auto entry_pairs, PairLayerEntries(npu_layers, bench_layers, mappings_.layer));
    layer_rows = LayerDataMapping(entry_pairs, p.npu.rows, p.bench.rows);
    match.data_mapping = &layer_rows;
  }
  p.pairs = MatchRows(p.npu.rows, p.bench.rows, match);
  p.table.rows = BuildResultRows(&p.npu.rows, &p.bench.rows, p.pairs, result_rows_.Take());
  if (p.table.mode == CompareMode::kTensor) MarkScratchRows(p.npu.scratch_entries, p.npu.json_path, &p.table.rows);
  return p;
}

MetricSlice CompareRun::ComputeSlice(PreparedPair* p, size_t begin, size_t end) const {
  const std::string& label = p->outcome.result.target_json;  // names the pair uniquely, whatever its step
  MetricSlice slice;
  slice.begin = begin;
  TensorCompareOptions tensor_options;
  tensor_options.right_matmul = options_.right_matmul;
  tensor_options.consistent = options_.consistent;
  slice.unreadable = ComputeTensorMetrics(p->npu, p->bench, &p->table.rows, begin, end, tensor_options,
                                          [&](uint64_t d, uint64_t t) {
                                            if (progress_) progress_(label, d, t);
                                          });
  return slice;
}

Result<PairOutcome> CompareRun::Conclude(const ComparePairSpec& spec, PreparedPair p,
                                         const std::vector<MetricSlice>& slices) const {
  PairResult& result = p.outcome.result;
  ResultTable& table = p.table;
  ApplyStatColumnTypes(&table);  // pandas types the columns before msprobe diffs them
  if (table.mode == CompareMode::kTensor) {
    // Slices computed elsewhere bring their metrics; this process's own are in the rows already.
    for (const MetricSlice& slice : slices) {
      for (size_t i = 0; i < slice.metrics.size(); ++i) table.rows[slice.begin + i].metrics = slice.metrics[i];
    }
    for (const MetricSlice& slice : slices) {  // in row order: the first unreadable file is reported
      for (const Status& s : slice.unreadable) {
        if (!s.ok() && result.unreadable_tensors++ == 0) result.first_unreadable = s.ToString();
      }
    }
  } else {
    FillStatistics(p.npu.rows, p.bench.rows, p.pairs, &table);
  }
  // The flattened dumps are done with once -da has its P2POp columns: free them before the verdicts
  // and writers allocate, so those reuse the memory.
  std::vector<P2pColumns> p2p;
  if (options_.diff_analyze) p2p = P2pOf(p.npu.rows, p.bench.rows, p.pairs);
  tbb::parallel_invoke([&] { op_rows_.Give(&p.npu.rows); }, [&] { op_rows_.Give(&p.bench.rows); });
  ApplyVerdicts(&table.rows, table.mode, options_.consistent);
  if (options_.attribute && table.mode == CompareMode::kTensor) {
    MSP_ASSIGN_OR_RETURN(result.first_cause, AttributeRows(spec.target_json, spec.golden_json, &table));
  } else if (options_.attribute) {
    AttributeUnknown(&table);
  }
  result.mode = DumpModeName(table.mode);
  PairOutputs outputs = OpenOutputs(spec, p.npu.is_debug);
  MSP_RETURN_IF_ERROR(outputs.Append(table, p2p));
  result_rows_.Give(&table.rows);
  MSP_RETURN_IF_ERROR(std::move(outputs).Finish(p.start, &p.outcome));
  return std::move(p.outcome);
}
SliceTable CompareRun::CompareBatch(std::vector<OpRow>* rows, std::vector<OpRow>* bench, const BenchMatcher& matcher,
                                    CompareMode mode, bool with_stack) const {
  const std::vector<RowPair> pairs = matcher.Match(*rows);
  SliceTable out;
  ResultTable& table = out.table;
  table.mode = mode;
  table.with_stack = with_stack;
  table.rows = BuildResultRows(rows, bench, pairs, {}, /*bench_reused=*/true);
  FillStatistics(*rows, *bench, pairs, &table);
  if (options_.diff_analyze) out.p2p = P2pOf(*rows, *bench, pairs);
  ApplyVerdicts(&table.rows, table.mode);
  if (options_.attribute) AttributeUnknown(&table);
  return out;
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
    const SliceTable batch = CompareBatch(rows, &bench->rows, *matcher, mode, !stack.empty());
    return outputs->Append(batch.table, batch.p2p);
  };
  MSP_ASSIGN_OR_RETURN(FlatDump npu, StreamFlatDumpAhead(spec.target_json, stack, options_.stream_batch_rows, compare_batch));
  MSP_RETURN_IF_ERROR(CheckFrameworks(npu, *bench, options_));
  if (!first) {
    outcome.result.skipped_reason = kNoRows;
    return std::optional<PairOutcome>(std::move(outcome));
  }
  // A header member after "data" that changes how the rows were read, or -da batches that a whole
  // table would check differently: compare again in memory (the files written so far are dropped).
  if (npu.is_debug != first->is_debug || npu.framework != first->framework || outputs->split_api() ||
      outputs->ints_as_floats()) {
    return std::optional<PairOutcome>();
  }
  MSP_RETURN_IF_ERROR(FinishStreamed(std::move(*outputs), mode, start, &outcome));
  return std::optional<PairOutcome>(std::move(outcome));
}


void CompareRun::Record(size_t pair, PairOutcome outcome) {
  report_.pairs.push_back(std::move(outcome.result));
  if (outcome.junit) report_.junit.push_back(std::move(*outcome.junit));
  if (outcome.rank) {
    ranks_.push_back(std::move(*outcome.rank));
    rank_pairs_.push_back(pair);
    diff_rows_.push_back(std::move(outcome.diff_rows));
  }
  if (outcome.pending_xlsx) KeepXlsx(pair, std::move(*outcome.pending_xlsx));
  if (outcome.html_part) html_.AddPart(std::move(*outcome.html_part));
}

Result<std::vector<XlsxMark>> CompareRun::AnalyzeFirstDiff() {
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
  std::vector<XlsxMark> marks;
  if (diff.stage == DiffStage::kNone) return marks;
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch());
  const std::string path = (fs::path(options_.output_dir) / fmt::format("diff_analyze_{}.json", ns.count())).string();
  MSP_RETURN_IF_ERROR(WriteDiffAnalyzeJson(path, sorted, diff));
  FirstDiffReport& report = report_.first_diff;
  report.stage = diff.stage;
  report.analyze_file = path;
  for (const DiffNodeRef& node : diff.nodes) {
    const DiffOp& op = sorted[node.rank_pos].ops[node.op];
    const size_t pair = sorted_pairs[node.rank_pos];
    const DiffRow& diff_row = diff_rows_[sorted_entries[node.rank_pos]].at(op.row);
    RowRef ref = diff_row.ref;
    ref.file = report_.pairs[pair].RowFile();
    // A pair's xlsx marks the first of its nodes.
    const bool marked = std::any_of(marks.begin(), marks.end(), [&](const XlsxMark& m) { return m.pair == pair; });
    if (!marked) marks.push_back(XlsxMark{pair, op.row, diff_row.ref.npu_name, diff_row.stack});
    report.nodes.push_back(std::move(ref));
    report.ranks.push_back(sorted[node.rank_pos].rank);
  }
  return marks;
}

Result<std::vector<std::pair<size_t, std::vector<std::string>>>> CompareRun::CommitXlsx(
    const std::vector<XlsxMark>& marks) {
  for (auto& [pair, xlsx] : pending_xlsx_) {
    for (const XlsxMark& mark : marks) {
      if (mark.pair == pair) xlsx.MarkFirstDiff(mark.row, mark.npu_name, mark.stack);
    }
  }
  // One workbook per rank, each on its own thread: libxlsxwriter writes a workbook serially.
  std::vector<Result<std::vector<std::string>>> written(pending_xlsx_.size(), std::vector<std::string>{});
  tbb::parallel_for(size_t{0}, pending_xlsx_.size(),
                    [&](size_t i) { written[i] = std::move(pending_xlsx_[i].second).Commit(); });
  std::vector<std::pair<size_t, std::vector<std::string>>> files;
  for (size_t i = 0; i < pending_xlsx_.size(); ++i) {
    MSP_RETURN_IF_ERROR(written[i].status());
    files.emplace_back(pending_xlsx_[i].first, std::move(*written[i]));
  }
  pending_xlsx_.clear();
  return files;
}

void CompareRun::AddOutputs(size_t pair, const std::vector<std::string>& files) {
  std::vector<std::string>& outputs = report_.pairs[pair].outputs;
  outputs.insert(outputs.end(), files.begin(), files.end());
}

Result<CompareReport> CompareRun::Finish() && {
  if (options_.write_html) {
    MSP_ASSIGN_OR_RETURN(report_.html_file, WriteRunHtml(options_.output_dir, options_.target_path + " vs " + options_.golden_path, report_, html_));
  }
  MSP_RETURN_IF_ERROR(WriteRunReports(options_, &report_));
  return std::move(report_);
}

// Two pairs at once keep both cores busy through each pair's serial steps, at twice the memory: a
// statistics compare held in memory peaks at about 6 bytes per byte of dump.json, 7 with two pairs
// and the row storage they pass on (VectorPool). So two only when the two largest pairs' dump.json
// files, at that rate, fit in half the machine's memory (shared by the processes of a distributed
// run on this host). A streamed pair needs far less (about 1.5
// bytes per byte of the golden json, docs/compare.md §6.1), but may fall back to the whole compare.
size_t PairsInFlight(const std::vector<ComparePairSpec>& specs, int processes_on_host) {
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
  return (largest + second) * kMemoryPerJsonByte <= memory / 2 / processes_on_host ? 2 : 1;
}

}  // namespace msprobe::compare::internal
