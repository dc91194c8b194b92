// msprobe-dump: inspect, verify and recompute dumps, load their statistics into a trend database, and
// check their ranks against each other.
// Parses arguments and hands over to the subcommands.
#include <CLI/CLI.hpp>

#include "common/app_options.h"
#include "common/exit_codes.h"
#include "msprobe/ops/reference/gemm_isa.h"
#include "msprobe_dump/commands.h"

namespace {

constexpr const char* kExamples = R"(
Examples:
  msprobe-dump stats dump_tensor_data/Functional.linear.0.forward.input.0.pt
  msprobe-dump stats --json out/*.npy > stats.json
  msprobe-dump verify dump/step0/rank0            # one rank
  msprobe-dump verify dump/step0                  # every rank of a step
  msprobe-dump verify dump/step0/rank0/debug.json
  msprobe-dump recompute dump/step0/rank0 -o out  # each op's own error against float64
  msprobe-dump statistic kernel_dump/rank_0      # statistic.csv for an npy kernel dump
  msprobe-dump overflow-check -i dump/step0 -o out   # the first op overflowing from clean inputs
  msprobe-dump run --dir cap -- python train.py   # capture every aclop kernel's tensors
  msprobe-dump run --mode stats --ops 'MatMul|Softmax' --ranks 0 -- ./train
  msprobe-dump data2db --db trend --data dump     # msprobe's trend database: trend/dump_data.trend.db
  msprobe-dump data2db --db trend --data dump --html   # and its page, trend/dump_data.trend.html
  msprobe-dump trend trend/dump_data.trend.db -o trend.html --ranks 0,1
  msprobe-dump consistency dump/step3 -o out   # the ranks of one step against each other (exit 1: inconsistent)
  msprobe-dump consistency dump -o out --html -q    # every step of a dump root; the page too
  msprobe-dump consistency dump -o out --data-parallel 0-3/4-7 --z-threshold 5
  mpirun -np 8 msprobe-dump consistency dump -o out   # MPI build: the ranks' reading shared

Exit codes: 0 all agree, 1 verify found a problem, recompute an op beyond its tolerance or a tensor it could not read, or consistency an inconsistency, 2 usage error, 3 input error (nothing to verify or recompute; data2db: nothing to import), 4 internal error.)";

// consistency's options, apart to keep main short.
CLI::App* AddConsistencyCommand(CLI::App& app, msprobe::dump_app::ConsistencyArgs* args) {
  CLI::App* cmd = app.add_subcommand(
      "consistency", "Check the ranks of a dump against each other, no golden run: collective results and "
                     "data-parallel parameters must agree exactly; Norm and Max far from the other ranks' are suspects");
  cmd->add_option("dump", args->input, "A step folder (rank*/dump.json) or a dump root (step*/rank*/)")->required();
  cmd->add_option("-o,--output", args->output_dir, "Output directory (default ./output)");
  cmd->add_option("--data-parallel", args->data_parallel,
                  "auto (default): groups from the collective reducing each gradient; none; all; or "
                  "groups such as 0-3/4-7");
  cmd->add_flag("--grads-reduced", args->grads_reduced,
                "The dumped parameter gradients are already reduced: check them like parameters");
  cmd->add_option("--z-threshold", args->z_threshold, "A suspect's |modified z-score| is above this (default 3.5)")
      ->check(CLI::PositiveNumber);
  cmd->add_flag("--recompute-stats", args->recompute_stats,
                "Tensor dumps: statistics and CRC-32 from the tensor files, not the json");
  cmd->add_option("--fail-on", args->fail_on, "inconsistency (default) or suspect: what exits 1")
      ->check(CLI::IsMember({"inconsistency", "suspect"}));
  cmd->add_flag("--html", args->html, "Also write consistency_report_{ts}.html: one self-contained page");
  return cmd;
}

}  // namespace

int main(int argc, char** argv) {
  return msprobe::cli::GuardedMain("msprobe-dump", [&] {
    CLI::App app{"Inspect and verify msprobe dumps and tensor files (.npy, .pt); their trend over steps and ranks."};
    app.footer(kExamples);
    app.require_subcommand(1);
    app.fallthrough();  // -q, -j may follow the subcommand name
    msprobe::cli::CommonOptions common;
    msprobe::cli::AddCommonOptions(app, &common);

    msprobe::dump_app::StatsArgs stats;
    CLI::App* stats_cmd = app.add_subcommand(
        "stats", "Print dtype, shape, max/min/mean/norm, NaN/Inf/zero counts and CRC-32 of tensor files");
    stats_cmd->add_option("files", stats.files, "Tensor files (.npy, .pt) or kernel .bin dumps (one line per slot)")->required();
    stats_cmd->add_flag("--json", stats.json, "Print a JSON array instead of one line per tensor");
    stats_cmd->add_flag("--no-crc", stats.no_crc, "Skip the CRC-32 (faster on huge files)");

    msprobe::dump_app::VerifyArgs verify;
    CLI::App* verify_cmd = app.add_subcommand(
        "verify", "Recompute the statistics of every tensor file of a dump and compare them with its json");
    verify_cmd->add_option("path", verify.path, "A dump.json, debug.json, rank dir, step dir or dump root")->required();
    verify_cmd->add_flag("--json", verify.json, "Print the report as JSON");

    msprobe::dump_app::RecomputeArgs recompute;
    CLI::App* recompute_cmd = app.add_subcommand(
        "recompute", "Recompute every API call of a tensor dump in float64 from its own inputs and flag ops beyond "
                     "their dtype's tolerance (no golden run needed)");
    recompute_cmd->add_option("path", recompute.path, "A dump.json, rank dir, step dir or dump root")->required();
    recompute_cmd->add_option("-o,--output", recompute.output_dir, "Output directory (default ./output)");
    recompute_cmd->add_flag("--html", recompute.html, "Also write compare_report_{ts}.html: one self-contained page");
    recompute_cmd->footer(msprobe::ops::GemmIsaLine());

    msprobe::dump_app::StatisticArgs statistic;
    CLI::App* statistic_cmd = app.add_subcommand(
        "statistic", "Write a MindSpore-style statistic.csv into each npy kernel dump directory");
    statistic_cmd->add_option("dir", statistic.dir, "A kernel dump tree (rank_N/…, step_N/…)")->required();
    statistic_cmd->add_flag("--force", statistic.force, "Replace an existing statistic.csv");

    msprobe::dump_app::RunArgs run;
    CLI::App* run_cmd = app.add_subcommand(
        "run", "Run a program under the capture shim and report what it captured (exit code: the program's)");
    run_cmd->add_option("--dir", run.dir, "Output directory (default msprobe_capture)");
    run_cmd->add_option("--mode", run.mode, "tensor: .bin files; stats: statistic.csv rows")
        ->check(CLI::IsMember({"tensor", "stats"}));
    run_cmd->add_option("--ops", run.ops, "Capture only op types matching this regular expression");
    run_cmd->add_option("--ranks", run.ranks, "Capture only these ranks (RANK_ID), e.g. 0,2-3");
    run_cmd->add_option("--shim", run.shim, "Path of libmsprobe_capture.so (default: found next to msprobe-dump)");
    run_cmd->add_option("command", run.command, "The program and its arguments, after --")->required();

    msprobe::dump_app::OverflowCheckArgs overflow;
    CLI::App* overflow_cmd = app.add_subcommand(
        "overflow-check", "Find the op whose output first overflows (inf/NaN) from clean inputs, across the ranks of "
                          "one dump, as msprobe overflow_check does (no golden run needed)");
    overflow_cmd->add_option("-i,--input_path", overflow.input_dir, "A step directory: rank*/ with dump.json, "
                                                                     "construct.json and stack.json")->required();
    overflow_cmd->add_option("-o,--output_path", overflow.output_dir, "Output directory (default ./output)");

    msprobe::dump_app::Data2DbArgs data2db;
    CLI::App* data2db_cmd = app.add_subcommand(
        "data2db", "Load the statistics of every step, rank and module into msprobe's trend database (SQLite), as "
                   "msprobe data2db does");
    data2db_cmd->add_option("--db", data2db.db, "Output directory: dump_data.trend.db, monitor_data.trend.db")->required();
    data2db_cmd->add_option("--data", data2db.data, "A dump root (step*/rank*/dump.json) or monitor output")->required();
    data2db_cmd->add_option("--format", data2db.format, "auto (default): dump, then monitor; dump; monitor")
        ->check(CLI::IsMember({"auto", "dump", "monitor"}));
    data2db_cmd->add_option("--mapping", data2db.mapping, "A JSON object of name replacements applied to every key");
    data2db_cmd->add_option("--micro_step", data2db.micro_step,
                            "true (default): steps counted in micro steps (gradient accumulation); false: step numbers")
        ->check(CLI::IsMember({"true", "false", "True", "False"}));
    data2db_cmd->add_option("--process_num", data2db.process_num, "msprobe's worker count (1-128); accepted, not needed")
        ->check(CLI::Range(1, 128));
    data2db_cmd->add_flag("--html", data2db.html, "Also write each database's trend page beside it (.trend.html)");

    msprobe::dump_app::TrendArgs trend;
    CLI::App* trend_cmd = app.add_subcommand(
        "trend", "Write the trend page of a trend database: a step x rank x module heat map and lines, one "
                 "self-contained HTML file");
    trend_cmd->add_option("db", trend.input, "A *.trend.db, or a directory of them (a page each)")->required();
    trend_cmd->add_option("-o,--output", trend.output, "The page (default: beside the database, .trend.html)");
    trend_cmd->add_option("--first-step", trend.first_step, "Show steps from this one");
    trend_cmd->add_option("--last-step", trend.last_step, "Show steps up to this one");
    trend_cmd->add_option("--ranks", trend.ranks, "Show these ranks only, e.g. 0,3,7")->delimiter(',');
    trend_cmd->add_option("--max-rows", trend.max_rows, "Refuse a page of more rows than this (default 2000000)");

    msprobe::dump_app::ConsistencyArgs consistency;
    CLI::App* consistency_cmd = AddConsistencyCommand(app, &consistency);

    if (auto early = msprobe::cli::Parse(app, argc, argv)) return *early;
    if (*consistency_cmd) return msprobe::dump_app::RunConsistencyCommand(consistency, common, &argc, &argv);
    const auto threads = msprobe::cli::ApplyThreads(common);
    if (*stats_cmd) return msprobe::dump_app::RunStats(stats, common);
    if (*run_cmd) return msprobe::dump_app::RunCapture(run, common);
    if (*recompute_cmd) return msprobe::dump_app::RunRecomputeCommand(recompute, common);
    if (*statistic_cmd) return msprobe::dump_app::RunStatistic(statistic, common);
    if (*overflow_cmd) return msprobe::dump_app::RunOverflowCheckCommand(overflow, common);
    if (*data2db_cmd) return msprobe::dump_app::RunData2Db(data2db, common);
    if (*trend_cmd) return msprobe::dump_app::RunTrendPage(trend, common);
    return msprobe::dump_app::RunVerify(verify, common);
  });
}
