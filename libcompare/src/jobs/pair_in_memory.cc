#include "jobs/pair_in_memory_internal.h"

#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <functional>
#include <utility>

#include "jobs/pair_rules_internal.h"
#include "msprobe/compare/metrics/tensor_compare.h"
#include "msprobe/compare/metrics/verdict.h"
#include "msprobe/compare/recompute/attribution.h"
#include "msprobe/compare/rows/call_alignment.h"
#include "msprobe/compare/rows/consistent_match.h"
#include "msprobe/compare/rows/result_builder.h"
#include "msprobe/compare/rows/scratch_rows.h"
#include "msprobe/compare/table/stat_columns.h"
#include "msprobe/dump/framework/dump_layout.h"

namespace msprobe::compare::internal {
namespace {

// Fills the six metrics of rows [begin, end); returns, per row, why its tensor file could not be read
// (missing, refused or unreadable: msprobe's "unsupported" row), ok when it could. `target_hashes`
// (--attribute; else null) receives the hashes attribution needs, each taken while the metrics read
// the file, or from the file when they did not read it whole.
std::vector<Status> ComputeTensorMetrics(const FlatDump& target, const FlatDump& golden, std::vector<ResultRow>* rows,
                                         size_t begin, size_t end, const TensorCompareOptions& options,
                                         const std::function<void(uint64_t, uint64_t)>& progress,
                                         std::vector<std::optional<uint64_t>>* target_hashes) {
  const std::string target_dir = TensorDataDir(target.json_path), golden_dir = TensorDataDir(golden.json_path);
  std::atomic<uint64_t> done{0};
  std::vector<Status> unreadable(end - begin);
  if (target_hashes != nullptr) target_hashes->assign(end - begin, std::nullopt);
  tbb::parallel_for(begin, end, [&](size_t i) {
    ResultRow& r = (*rows)[i];
    TensorCompareInput input{r.target_data_name, r.golden_data_name, r.matched,
                             target_dir,         golden_dir,         r.target_valid_rows};
    std::optional<uint64_t>* hash =
        target_hashes != nullptr && NeedsTargetHash(r) ? &(*target_hashes)[i - begin] : nullptr;
    const std::array<Cell, 6> metrics = CompareTensors(input, options, &unreadable[i - begin], hash);
    if (hash != nullptr && !*hash) *hash = HashTargetFile(target_dir, r);
    r.metrics.assign(metrics.begin(), metrics.end());
    if (progress) progress(++done, end - begin);
  });
  return unreadable;
}

// A pair without tensor files, compared whole, moves at each of its steps (docs/compare.md §7.5);
// committing its files, the last, fills its share.
enum WholeStep : uint64_t { kDumpsRead = 1, kRowsMatched, kRowsCompared, kRowsWritten, kWholeSteps };

void ReportStep(const Progress& progress, const PreparedPair& p, WholeStep step) {
  if (progress && p.table.mode != CompareMode::kTensor) progress(p.outcome.result.target_json, step, kWholeSteps);
}

}  // namespace

Result<PreparedPair> PairInMemory::Prepare(const ComparePairSpec& spec) const {
  return Prepare(spec, steps_.StackOf(spec), Clock::now(), std::nullopt);
}

Result<PreparedPair> PairInMemory::Prepare(const ComparePairSpec& spec, std::string stack, Clock::time_point start,
                                           std::optional<FlatDump> golden_flat) const {
  const CompareOptions& options = steps_.options();
  VectorPool<OpRow>& op_rows = steps_.op_rows();
  PreparedPair p;
  p.outcome = NewOutcome(spec);
  p.stack = std::move(stack);
  p.start = start;
  // The two sides parse independently: one core each.
  Result<FlatDump> target_flat = Status::Internal("", "not run"), golden_parsed = Status::Internal("", "not run");
  EntryFilter keep;  // --consistent_check reads the training side by msprobe's parse rules
  if (options.consistent != ConsistentBackend::kNone) keep = VerlParseFilter(options.consistent);
  if (golden_flat) {
    target_flat = FlattenDump(spec.target_json, p.stack, op_rows.Take(), std::move(keep));
    golden_parsed = std::move(*golden_flat);
  } else {
    tbb::parallel_invoke([&] { target_flat = FlattenDump(spec.target_json, p.stack, op_rows.Take(), std::move(keep)); },
                         [&] { golden_parsed = FlattenDump(spec.golden_json, "", op_rows.Take()); });
  }
  MSP_ASSIGN_OR_RETURN(p.target, std::move(target_flat));
  MSP_ASSIGN_OR_RETURN(p.golden, std::move(golden_parsed));
  MSP_RETURN_IF_ERROR(CheckFrameworks(p.target, p.golden, options));
  if (p.target.rows.empty() || p.golden.rows.empty()) {
    NoteNoRows(options, p.target.rows.size(), p.golden.rows, &p.outcome);
    p.skipped = true;
    return p;
  }
  NoteDumps(p.target, p.golden, &p.outcome.result);
  p.table.mode = ComparedMode(options, p.target.mode);
  p.table.with_stack = !p.stack.empty();
  ReportStep(steps_.progress(), p, kDumpsRead);
  if (options.consistent != ConsistentBackend::kNone) {
    MSP_RETURN_IF_ERROR(CheckConsistentDumps(p.target, p.golden));
    const ConsistentOptions consistent{options.consistent, options.write_csv ? ";  " : ";\n"};
    MSP_ASSIGN_OR_RETURN(p.table.rows, BuildConsistentRows(p.target.rows, p.golden.rows, consistent, spec.target_json));
    return p;
  }
  MatchOptions match = steps_.PairMatchOptions(p.target, p.golden);
  DataMapping layer_rows;  // -lm: this pair's row mapping, from both module trees
  if (options.layer_mapping) {
    MSP_ASSIGN_OR_RETURN(LayerDumpInfo target_layers, ReadLayerDumpInfo(spec.target_json, p.target.framework));
    MSP_ASSIGN_OR_RETURN(LayerDumpInfo golden_layers, ReadLayerDumpInfo(spec.golden_json, p.golden.framework));
    MSP_ASSIGN_OR_RETURN(auto entry_pairs, PairLayerEntries(target_layers, golden_layers, steps_.mappings().layer));
    layer_rows = LayerDataMapping(entry_pairs, p.target.rows, p.golden.rows);
    match.data_mapping = &layer_rows;
  }
  p.pairs = MatchRows(p.target.rows, p.golden.rows, match);
  std::vector<float> aligned;
  if (options.align) {
    const AlignOptions align{options.align_threshold, p.table.mode == CompareMode::kMd5};
    aligned = AlignUnmatchedCalls(p.target.rows, p.golden.rows, match, align, &p.pairs);
  }
  GoldenRowUse golden_use(p.golden.rows.size());
  golden_use.Mark(p.pairs);
  NoteUnmatchedGolden(p.golden.rows, golden_use, &p.outcome.result);  // before the names move into the rows
  p.outcome.result.unmatched.target = TargetRowsLeftOut(p.pairs, p.target.rows.size());
  p.table.rows = BuildResultRows(&p.target.rows, &p.golden.rows, p.pairs, steps_.result_rows().Take());
  if (p.table.mode == CompareMode::kTensor)
    MarkScratchRows(p.target.scratch_entries, p.target.json_path, &p.table.rows);
  if (options.align) {
    p.table.with_match = true;
    MarkMatchOrigins(p.pairs, aligned, match, &p.table.rows);
  }
  return p;
}

MetricSlice PairInMemory::ComputeSlice(PreparedPair* p, size_t begin, size_t end) const {
  const std::string& label = p->outcome.result.target_json;  // names the pair uniquely, whatever its step
  const Progress& progress = steps_.progress();
  MetricSlice slice;
  slice.begin = begin;
  TensorCompareOptions tensor_options;
  tensor_options.right_matmul = steps_.options().right_matmul;
  tensor_options.consistent = steps_.options().consistent;
  // Counted against the pair's rows: a slice moves only its part of the pair's share.
  const uint64_t rows = p->table.rows.size();
  slice.unreadable = ComputeTensorMetrics(p->target, p->golden, &p->table.rows, begin, end, tensor_options,
                                          [&](uint64_t d, uint64_t) {
                                            if (progress) progress(label, d, rows);
                                          },
                                          steps_.options().attribute ? &slice.target_hashes : nullptr);
  return slice;
}

Result<PairOutcome> PairInMemory::Conclude(const ComparePairSpec& spec, PreparedPair p,
                                           const std::vector<MetricSlice>& slices) const {
  const CompareOptions& options = steps_.options();
  PairResult& result = p.outcome.result;
  ResultTable& table = p.table;
  ReportStep(steps_.progress(), p, kRowsMatched);
  ApplyStatColumnTypes(&table);  // pandas types the columns before msprobe diffs them
  if (table.mode == CompareMode::kTensor) {
    // Slices computed elsewhere bring their metrics; this process's own are in the rows already.
    for (const MetricSlice& slice : slices) {
      for (size_t i = 0; i < slice.metrics.size(); ++i) table.rows[slice.begin + i].metrics = slice.metrics[i];
    }
    for (const MetricSlice& slice : slices) {  // in row order: the first unreadable file is reported
      for (size_t i = 0; i < slice.unreadable.size(); ++i) {
        const Status& s = slice.unreadable[i];
        if (s.ok()) continue;
        table.rows[slice.begin + i].unreadable = true;
        if (result.unreadable_tensors++ == 0) result.first_unreadable = s.ToString();
      }
    }
  } else {
    FillStatistics(p.target.rows, p.golden.rows, p.pairs, &table);
  }
  // The flattened dumps are done with once -da has its P2POp columns: free them before the verdicts
  // and writers allocate, so those reuse the memory.
  std::vector<P2pColumns> p2p;
  if (options.diff_analyze) p2p = P2pOf(p.target.rows, p.golden.rows, p.pairs);
  tbb::parallel_invoke([&] { steps_.op_rows().Give(&p.target.rows); }, [&] { steps_.op_rows().Give(&p.golden.rows); });
  ApplyVerdicts(&table.rows, table.mode, options.consistent);
  ReportStep(steps_.progress(), p, kRowsCompared);
  if (options.attribute && table.mode == CompareMode::kTensor) {
    // --attribute keeps a pair whole (docs/distributed.md §2): every slice is this process's own.
    std::vector<std::optional<uint64_t>> hashes(table.rows.size());
    for (const MetricSlice& slice : slices) std::ranges::copy(slice.target_hashes, hashes.begin() + slice.begin);
    MSP_ASSIGN_OR_RETURN(result.first_cause, AttributeRows(spec.target_json, spec.golden_json, hashes, &table));
  } else if (options.attribute) {
    AttributeUnknown(&table);
  }
  result.mode = DumpModeName(table.mode);
  PairOutputs outputs = steps_.OpenOutputs(spec, p.target.is_debug);
  MSP_RETURN_IF_ERROR(outputs.Append(table, p2p));
  ReportStep(steps_.progress(), p, kRowsWritten);
  steps_.result_rows().Give(&table.rows);
  MSP_RETURN_IF_ERROR(std::move(outputs).Finish(p.start, &p.outcome));
  return std::move(p.outcome);
}

}  // namespace msprobe::compare::internal
