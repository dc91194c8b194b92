// Compare of two MindSpore graph-mode kernel dumps (docs/kernel_dump.md §6, msprobe
// ms_graph_compare): the lowest-level dump directories of both trees grouped by (rank, step), their
// tensors paired by "{op_name}.{task_id}.{io}.{slot}" and occurrence, then NPY mode (tensor files:
// statistics and the tensor metrics) or STATISTIC mode (statistic.csv rows: differences of the
// statistics). One result per (rank, step), written through the framework compare's writers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "msprobe/compare/jobs/compare_job.h"
#include "msprobe/compare/table/result_table.h"
#include "msprobe/dump/kernel/kernel_dump_tree.h"
#include "msprobe/dump/util/job_context.h"
#include "msprobe/dump/util/status.h"

namespace msprobe::compare {

struct KernelCompareOptions {
  // The run-wide options, as for RunCompare: target_path (-tp) and golden_path (-gp) are the two
  // dump roots; output_dir (created when missing), write_csv, write_xlsx, fail_on, junit_path and
  // tool_version as documented there. The framework compare's other fields are not used (the CLI
  // refuses their flags).
  CompareOptions run;
  std::vector<int64_t> ranks, steps;   // --rank / --step; empty: all
};

// The table of one (rank, step): the directories of each side that share it. InvalidInput when one
// side holds tensor files and the other only statistic.csv, or a statistic.csv is malformed.
// `progress`, when set, is told ("rows", done, total) over the table's rows as they are compared.
Result<ResultTable> CompareKernelDirs(const std::vector<KernelDumpDir>& target,
                                      const std::vector<KernelDumpDir>& golden, const Progress& progress = {});

// Finds both trees' dump directories, compares every (rank, step) both have (filtered by the
// options) and writes compare_result_{rank}_{step}_{YYYYmmddHHMMSS}.csv/.xlsx into output_dir, then,
// as RunCompare does, summary.json and the JUnit file when asked. One PairResult per (rank, step),
// labelled "rank{R}_step{S}", its target_json/golden_json the first dump directory of each side.
// A row's Result (for the counts, --fail-on and JUnit) follows its Accuracy Reached or Not: Yes
// passes, No is an error, anything else (None, Unmatched, checks failed) a warning. Progress: the
// (rank, step)'s label, its rows compared and in all, summed over the (rank, step)s begun; one
// process (the context's cluster is not used). InvalidInput when the trees share no (rank, step).
Result<CompareReport> RunKernelCompare(const KernelCompareOptions& options, const JobContext& context = {});

}  // namespace msprobe::compare
