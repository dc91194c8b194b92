// msprobe-dump: inspect and verify dumps. Parses arguments and hands over to the subcommands.
#include <CLI/CLI.hpp>

#include "common/app_options.h"
#include "common/exit_codes.h"
#include "msprobe_dump/commands.h"

namespace {

constexpr const char* kExamples = R"(
Examples:
  msprobe-dump stats dump_tensor_data/Functional.linear.0.forward.input.0.pt
  msprobe-dump stats --json out/*.npy > stats.json
  msprobe-dump verify dump/step0/rank0            # one rank
  msprobe-dump verify dump/step0                  # every rank of a step
  msprobe-dump verify dump/step0/rank0/debug.json

Exit codes: 0 all agree, 1 verify found a problem, 2 usage error, 3 input error, 4 internal error.)";

}  // namespace

int main(int argc, char** argv) {
  return msprobe::cli::GuardedMain("msprobe-dump", [&] {
    CLI::App app{"Inspect and verify msprobe dumps and tensor files (.npy, .pt)."};
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

    if (auto early = msprobe::cli::Parse(app, argc, argv)) return *early;
    const auto threads = msprobe::cli::ApplyThreads(common);
    if (*stats_cmd) return msprobe::dump_app::RunStats(stats, common);
    return msprobe::dump_app::RunVerify(verify, common);
  });
}
