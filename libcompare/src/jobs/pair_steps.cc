#include "jobs/pair_steps_internal.h"

#include <fmt/format.h>
#include <tbb/parallel_for.h>

#include <filesystem>
#include <system_error>
#include <utility>

#include "jobs/pair_rules_internal.h"
#include "jobs/run_report_internal.h"
#include "msprobe/compare/metrics/stats_diff.h"
#include "msprobe/compare/metrics/verdict.h"
#include "msprobe/compare/rows/result_builder.h"
#include "output/output_timestamp_internal.h"

namespace msprobe::compare::internal {
namespace {

namespace fs = std::filesystem;

// "rank0", "proc12", or the target json for a file pair.
std::string PairLabel(const ComparePairSpec& spec) { return spec.suffix.empty() ? spec.target_json : spec.suffix.substr(1); }

}  // namespace

std::string PairSteps::StackOf(const ComparePairSpec& spec) const {
  if (!options_.stack_path.empty()) return options_.stack_path;
  const fs::path beside = fs::path(spec.target_json).parent_path() / "stack.json";
  std::error_code ec;
  return fs::is_regular_file(beside, ec) ? beside.string() : std::string();
}

MatchOptions PairSteps::PairMatchOptions(const FlatDump& target, const FlatDump& golden) const {
  MatchOptions match = mappings_.match;
  match.is_debug = target.is_debug;
  match.cross_framework = CrossFramework(target, golden);
  if (!options_.data_mapping.empty()) match.data_mapping = &mappings_.data;
  if (options_.cell_mapping) match.cell_mapping = &mappings_.cell;
  if (options_.api_mapping) match.api_mapping = &mappings_.api;
  return match;
}

PairOutputs PairSteps::OpenOutputs(const ComparePairSpec& spec, bool is_debug) const {
  const std::string ts = OutputTimestamp();
  const fs::path dir(spec.output_dir);
  // msprobe names the -da json "compare_result" + suffix whatever the json kind.
  return PairOutputs(options_, spec, directories_mutex_,
                     (dir / ((is_debug ? "debug_compare_result" : "compare_result") + spec.suffix + "_" + ts)).string(),
                     (dir / ("compare_result" + spec.suffix + "_" + ts + ".json")).string(), PairLabel(spec));
}

SliceTable PairSteps::CompareBatch(std::vector<OpRow>* rows, std::vector<OpRow>* golden, const GoldenMatcher& matcher,
                                   CompareMode mode, bool with_stack, GoldenRowUse* golden_use) const {
  const std::vector<RowPair> pairs = matcher.Match(*rows);
  golden_use->Mark(pairs);
  SliceTable out;
  ResultTable& table = out.table;
  table.mode = mode;
  table.with_stack = with_stack;
  table.rows = BuildResultRows(rows, golden, pairs, {}, /*golden_reused=*/true);
  FillStatistics(*rows, *golden, pairs, &table);
  if (options_.diff_analyze) out.p2p = P2pOf(*rows, *golden, pairs);
  ApplyVerdicts(&table.rows, table.mode);
  if (options_.attribute) AttributeUnknown(&table);
  return out;
}

PairOutcome NewOutcome(const ComparePairSpec& spec) {
  PairOutcome outcome;
  outcome.result.target_json = spec.target_json;
  outcome.result.golden_json = spec.golden_json;
  outcome.result.label = PairLabel(spec);
  return outcome;
}

void NoteDumps(const FlatDump& target, const FlatDump& golden, PairResult* result) {
  result->target_level = target.level;
  result->golden_level = golden.level;
  result->golden_rows = golden.rows.size();
}

void NoteNoRows(const CompareOptions& options, uint64_t target_rows, const std::vector<OpRow>& golden,
                PairOutcome* outcome) {
  PairResult& result = outcome->result;
  result.golden_rows = golden.size();
  result.unmatched.target = target_rows;
  result.unmatched.golden = golden.size();
  if (!golden.empty()) result.unmatched.first_golden = golden.front().name;
  const std::string why = target_rows == 0 && golden.empty() ? "neither dump has rows to compare"
                          : target_rows == 0 ? fmt::format("{}: no rows to compare ({} in the golden dump)",
                                                           result.target_json, golden.size())
                                             : fmt::format("{}: no rows to compare ({} in the target dump)",
                                                           result.golden_json, target_rows);
  result.skipped_reason = why + "; nothing compared (msprobe writes no file then)";
  outcome->junit = SkippedPairSuite(options, result);
}

void NoteUnmatchedGolden(const std::vector<OpRow>& golden, const GoldenRowUse& use, PairResult* result) {
  result->unmatched.golden = use.Unmatched();
  if (const std::optional<size_t> first = use.FirstUnmatched()) result->unmatched.first_golden = golden[*first].name;
}

Status FinishStreamed(PairOutputs outputs, CompareMode mode, Clock::time_point start, PairOutcome* outcome) {
  outcome->result.mode = DumpModeName(mode);
  outcome->result.streamed = true;
  return std::move(outputs).Finish(start, outcome);
}

void FillStatistics(const std::vector<OpRow>& target, const std::vector<OpRow>& golden,
                    const std::vector<RowPair>& pairs, ResultTable* table) {
  if (table->mode == CompareMode::kSummary) {
    tbb::parallel_for(size_t{0}, table->rows.size(), [&](size_t i) { FillStatsDiff(&table->rows[i]); });
    return;
  }
  for (size_t i = 0; i < pairs.size(); ++i) {
    FillMd5(&table->rows[i], target[pairs[i].target].md5, pairs[i].golden ? golden[*pairs[i].golden].md5 : "N/A");
  }
}

// msprobe aligns the golden side by row position, which is the matched row whenever both dumps have
// the same rows; we take the matched golden row.
std::vector<P2pColumns> P2pOf(const std::vector<OpRow>& target, const std::vector<OpRow>& golden,
                              const std::vector<RowPair>& pairs) {
  const auto or_none = [](const std::string& s) { return s.empty() ? std::string("None") : s; };
  std::vector<P2pColumns> p2p(pairs.size());
  tbb::parallel_for(size_t{0}, pairs.size(), [&](size_t i) {
    const OpRow& n = target[pairs[i].target];
    if (n.p2p) {
      p2p[i].target_op = or_none(n.p2p->op);
      p2p[i].target_peer = or_none(n.p2p->peer);
    }
    if (pairs[i].golden && golden[*pairs[i].golden].p2p) {
      const P2pOpFields& b = *golden[*pairs[i].golden].p2p;
      p2p[i].golden_op = or_none(b.op);
      p2p[i].golden_peer = or_none(b.peer);
    }
  });
  return p2p;
}

}  // namespace msprobe::compare::internal
