// What the ways of comparing a pair of one run share (jobs/pair_compare, pair_in_memory,
// statistics_slice_compare): the run's options, mappings and progress, the row vectors finished
// pairs pass on, and the steps they have in common: the stack.json a pair reads, how its rows match,
// its outputs opened, its rows' statistics filled, a batch of target rows compared.
#pragma once

#include <chrono>
#include <mutex>
#include <string>
#include <vector>

#include "jobs/compare_inputs_internal.h"
#include "jobs/pair_outputs_internal.h"
#include "jobs/run_plan_internal.h"
#include "msprobe/compare/jobs/compare_job.h"
#include "msprobe/compare/rows/flatten.h"
#include "msprobe/compare/rows/golden_row_use.h"
#include "msprobe/compare/rows/match.h"
#include "msprobe/dump/util/job_context.h"
#include "util/vector_pool_internal.h"

namespace msprobe::compare::internal {

using Clock = std::chrono::steady_clock;

// A batch of a pair's target rows compared: finished rows and -da's P2POp columns.
struct SliceTable {
  ResultTable table;
  std::vector<P2pColumns> p2p;
};

// Safe to use for several pairs at once: reads only the options and mappings, and the pools and the
// directories' mutex lock.
class PairSteps {
 public:
  PairSteps(const CompareOptions& options, const Mappings& mappings, const Progress& progress)
      : options_(options), mappings_(mappings), progress_(progress) {}

  const CompareOptions& options() const { return options_; }
  const Mappings& mappings() const { return mappings_; }
  const Progress& progress() const { return progress_; }
  // The row vectors of pairs done, for the next pairs.
  VectorPool<OpRow>& op_rows() const { return op_rows_; }
  VectorPool<ResultRow>& result_rows() const { return result_rows_; }

  // The stack.json the target's rows take their stacks from ("" for none).
  std::string StackOf(const ComparePairSpec& spec) const;
  // The matching of a pair of these dumps (their kind and frameworks, and the run's mappings).
  MatchOptions PairMatchOptions(const FlatDump& target, const FlatDump& golden) const;
  // A pair's outputs, named with the time they are opened.
  PairOutputs OpenOutputs(const ComparePairSpec& spec, bool is_debug) const;
  // Target rows matched against the golden ones and made into finished rows: statistics, verdicts
  // and -da's P2POp columns. The golden rows serve later batches too; `golden_use` hears which matched.
  SliceTable CompareBatch(std::vector<OpRow>* rows, std::vector<OpRow>* golden, const GoldenMatcher& matcher,
                          CompareMode mode, bool with_stack, GoldenRowUse* golden_use) const;

 private:
  const CompareOptions& options_;
  const Mappings& mappings_;
  const Progress& progress_;
  mutable std::mutex directories_mutex_;
  mutable VectorPool<OpRow> op_rows_;
  mutable VectorPool<ResultRow> result_rows_;
};

// A pair's outcome before it is compared: which files, under which label.
PairOutcome NewOutcome(const ComparePairSpec& spec);
// What the pair's dumps say of themselves: their levels and the golden row count.
void NoteDumps(const FlatDump& target, const FlatDump& golden, PairResult* result);
// A pair skipped because a side has no rows (msprobe writes no file then): why, naming the empty side,
// every row of the other side counted as not compared, and its JUnit suite.
void NoteNoRows(const CompareOptions& options, uint64_t target_rows, const std::vector<OpRow>& golden,
                PairOutcome* outcome);
// The golden rows no target row matched, counted with the first one's name.
void NoteUnmatchedGolden(const std::vector<OpRow>& golden, const GoldenRowUse& use, PairResult* result);
// A pair whose rows went to `outputs` in batches (streamed, or in slices): its files committed and
// its outcome filled, compared in `mode`; `start`: when the pair began.
Status FinishStreamed(PairOutputs outputs, CompareMode mode, Clock::time_point start, PairOutcome* outcome);
// The statistics diffs or md5 columns of the rows made from these pairs.
void FillStatistics(const std::vector<OpRow>& target, const std::vector<OpRow>& golden,
                    const std::vector<RowPair>& pairs, ResultTable* table);
// The P2POp columns of -da (docs/compare.md §8.1), one per pair.
std::vector<P2pColumns> P2pOf(const std::vector<OpRow>& target, const std::vector<OpRow>& golden,
                              const std::vector<RowPair>& pairs);

}  // namespace msprobe::compare::internal
