// msprobe-merge: per-rank compare results → one workbook, as msprobe merge_result does.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "common/app_options.h"
#include "common/cluster_session.h"
#include "common/exit_codes.h"
#include "common/progress.h"
#include "common/single_dash_flags.h"
#include "common/stderr_report.h"
#include "msprobe/compare/merge/merge_job.h"

namespace {

constexpr const char* kExamples = R"(
Examples:
  msprobe-merge -i compare_out -o merged -config merge.yaml
  msprobe-merge --input_dir compare_out --output_dir merged --config-path merge.yaml -q
  mpirun -np 4 msprobe-merge -i compare_out -o merged -config merge.yaml   # MPI build: reading shared

merge.yaml:
  api:                      # NPU Name prefixes to merge (required)
  - Distributed.all_reduce
  - Distributed.all_gather
  compare_index:            # one sheet each; empty or missing: every index of the results' mode
  - Max diff
  - L2norm diff
  highlight_factor: 10      # cells differing from their row's median across ranks by more than
                            # this factor are filled red (default 10)

Inputs: compare_result_rank{N}_{ts}.xlsx or .csv in DIR (msprobe's G2/G3 xlsx or ours).
Output: DIR/multi_ranks_compare_merge_{YYYYmmddHHMMSS}.xlsx; its path is printed on stdout.
Exit codes: 0 done, 2 usage error, 3 input error (bad names, config, nothing to merge), 4 internal error.)";

const msprobe::cli::FlagTable kFlags = {{{"-config", "--config-path"}}, {}, "ioj"};

}  // namespace

int main(int argc, char** argv) {
  msprobe::cli::ClusterSession session(&argc, &argv);
  return session.Run("msprobe-merge", [&] {
    msprobe::cli::RewrittenArgs rewritten = msprobe::cli::RewriteFlags(argc, argv, kFlags);
    if (auto stop = msprobe::cli::ReportRewrite("msprobe-merge", rewritten)) return *stop;
    msprobe::cli::ArgvBuffer args(std::move(rewritten.args));
    CLI::App app{"Merge per-rank compare results into one workbook, as msprobe merge_result does."};
    app.footer(kExamples);
    msprobe::cli::CommonOptions common;
    msprobe::cli::AddCommonOptions(app, &common);
    msprobe::compare::MergeOptions options;
    app.add_option("-i,--input_dir", options.input_dir, "Directory of the per-rank compare results")->required();
    app.add_option("-o,--output_dir", options.output_dir, "Output directory (created when missing)")->required();
    app.add_option("--config-path", options.config_path, "Merge config, a .yaml file (-config)")->required();
    if (auto early = msprobe::cli::Parse(app, args.argc(), args.argv())) return *early;
    const auto threads = session.ApplyThreads(common);

    // Several processes: process 0 tells of the results as they join and writes the workbook.
    msprobe::cli::ProgressBar bar("merge", common.quiet || !session.root());
    msprobe::JobContext context{.progress = bar.Callback(), .cluster = session.cluster()};
    if (session.root()) {
      context.warn = msprobe::cli::PrintWarnings("msprobe-merge", &bar);
    }
    auto report = msprobe::compare::RunMerge(options, context);
    bar.Clear();
    int code = msprobe::cli::kExitOk;
    if (!report.ok()) {
      code = session.root() ? msprobe::cli::ReportAndExit("msprobe-merge", report.status())
                            : msprobe::cli::ExitCodeFor(report.status());
    } else if (session.root()) {
      if (!common.quiet) {
        fmt::print("{}\n", report->output_path);
        msprobe::cli::PrintErr("merged {} rank(s): {} row(s) in {} sheet(s)\n", report->ranks.size(), report->rows,
                               report->sheets.size());
      }
    }
    return session.AgreeExitCode(code);
  });
}
