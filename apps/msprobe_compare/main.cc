// msprobe-compare: target (NPU) dump vs golden (bench) dump → msprobe-compatible result tables.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "common/app_options.h"
#include "common/cluster_session.h"
#include "common/exit_codes.h"
#include "common/progress.h"
#include "common/retain_freed_memory.h"
#include "common/single_dash_flags.h"
#include "common/stderr_report.h"
#include "msprobe/compare/jobs/compare_job.h"
#include "msprobe_compare/compare_args.h"

namespace {

constexpr const char* kExamples = R"(
Examples:
  msprobe-compare -tp npu_dump/step0 -gp bench_dump/step0 -o out        # every rank; csv + xlsx per rank
  msprobe-compare -tp npu/step0/rank0/dump.json -gp gpu/step0/rank0/dump.json --xlsx
  msprobe-compare -tp npu/step0/rank0/debug.json -gp gpu/step0/rank0/debug.json --csv
  msprobe-compare -npu npu/step0/rank3 -gp gpu/step0/rank3 -fm           # two rank dirs, fuzzy matching
  msprobe-compare -i compare.json -o out                                   # {"npu_path": …, "bench_path": …}
  msprobe-compare -tp npu/step0 -gp gpu/step0 -o out -da --fail-on-first-diff   # first diff across ranks
  msprobe-compare -tp npu/step0 -gp gpu/step0 --fail-on error --junit out/compare.xml   # a CI gate
  msprobe-compare -tp npu/step0/rank0 -gp gpu/step0/rank0 --attribute   # which op caused it (tensor dumps)
  msprobe-compare -tp npu/step0 -gp gpu/step0 --tensor-postprocess right_matmul.yaml   # rotated tensors
  msprobe-compare -tp npu_kernel -gp gpu_kernel --rank 0 --fail-on error --junit out/kernel.xml   # kernel dumps
  mpirun -np 8 msprobe-compare -tp npu/step0 -gp gpu/step0 -o out   # MPI build: 8 processes, any hosts

Outputs: compare_result[_rankN]_{YYYYmmddHHMMSS}.csv (as msprobe writes it) and .xlsx (typed cells,
red/yellow rows, a summary sheet); debug.json inputs give debug_compare_result_…; summary.json
(counts, first error, first diff, worst rows; with --attribute the first cause). -da: compare_result[_rankN]_{ts}.json per pair and
diff_analyze_{ns}.json as msprobe writes them (csv/xlsx only with --csv/--xlsx; the xlsx then marks
the first diff orange).
--rank/--step (kernel dump trees): compare_result_{rank}_{step}_{ts}.csv/.xlsx and summary.json; an
"Accuracy Reached or Not" of No counts as an error for --fail-on and --junit, anything but Yes a warning.
Exit codes: 0 done, 1 a gate failed (--fail-on, --fail-on-first-diff), 2 usage error, 3 input error
(missing, malformed, mismatched dumps), 4 internal error.)";

}  // namespace

int main(int argc, char** argv) {
  msprobe::cli::ClusterSession session(&argc, &argv);
  return session.Run("msprobe-compare", [&] {
    msprobe::cli::RewrittenArgs rewritten = msprobe::cli::RewriteFlags(argc, argv, msprobe::compare_app::kFlags);
    if (auto stop = msprobe::cli::ReportRewrite("msprobe-compare", rewritten)) return *stop;
    msprobe::cli::ArgvBuffer args(std::move(rewritten.args));
    CLI::App app{"Compare a target (NPU) dump with a golden (bench) dump, as msprobe compare does."};
    app.footer(kExamples);
    msprobe::cli::CommonOptions common;
    msprobe::cli::AddCommonOptions(app, &common);
    msprobe::compare_app::CompareArgs compare_args;
    msprobe::compare_app::AddCompareOptions(app, &compare_args);
    if (auto early = msprobe::cli::Parse(app, args.argc(), args.argv())) return *early;
    const auto threads = session.ApplyThreads(common);

    // --rank/--step select the kernel-dump compare: the same run-wide options, plus rank and step ids.
    const bool kernel = msprobe::compare_app::IsKernelCompare(compare_args);
    msprobe::compare::KernelCompareOptions kernel_options;
    msprobe::compare::CompareOptions framework_options;
    msprobe::compare::CompareOptions& options = kernel ? kernel_options.run : framework_options;
    if (auto usage = kernel ? msprobe::compare_app::ToKernelCompareOptions(compare_args, &kernel_options)
                            : msprobe::compare_app::ToCompareOptions(compare_args, &options)) {
      msprobe::cli::PrintErr("msprobe-compare: error: {}\n", usage->message);
      return usage->exit_code;
    }
    msprobe::compare::RightMatmul right_matmul;
    std::vector<std::string> warnings;
    if (auto error = msprobe::compare_app::LoadTensorPostprocess(compare_args, &right_matmul, &warnings)) {
      if (session.root()) msprobe::cli::PrintErr("msprobe-compare: error: {}\n", error->message);
      return error->exit_code;
    }
    if (session.root()) {
      for (const std::string& warning : warnings) msprobe::cli::PrintErr("msprobe-compare: warning: {}\n", warning);
    }
    if (!right_matmul.empty()) options.right_matmul = &right_matmul;
    if (kernel && session.several()) {
      if (session.root()) msprobe::cli::PrintErr("msprobe-compare: error: kernel-dump compares (--rank/--step) run in one process\n");
      return int{msprobe::cli::kExitUsage};
    }
    msprobe::cli::RetainFreedMemory();
    // Several processes: process 0 shows the whole run's progress and prints the results.
    msprobe::cli::ProgressBar bar("compare", common.quiet || !session.root());
    const msprobe::JobContext context{.progress = bar.Callback(),
                                      .cluster = session.cluster(),
                                      .on_failure = [&](const msprobe::Status& failed) {
                                        msprobe::cli::PrintErr("msprobe-compare: {}error: {}\n", session.Prefix(),
                                                               failed.ToString());
                                      }};
    auto report = kernel ? msprobe::compare::RunKernelCompare(kernel_options, context)
                         : msprobe::compare::RunCompare(options, context);
    msprobe::compare_app::PrintRightMatmulFailures(right_matmul, session.Prefix());
    int code = msprobe::cli::kExitOk;
    if (!report.ok()) {
      code = session.root() ? msprobe::cli::ReportAndExit("msprobe-compare", report.status())
                            : msprobe::cli::ExitCodeFor(report.status());
    } else if (session.root()) {
      bar.Clear();
      msprobe::compare_app::PrintReport(*report, common.quiet);
      code = msprobe::compare_app::ReportGates(options, *report);
    }
    return session.AgreeExitCode(code);
  });
}
