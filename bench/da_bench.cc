// Benchmark of -da (the triage issue): an 8-rank statistics dump of about 200 MB per rank and side,
// generated deterministically if missing, with an all_reduce over all ranks every 64 APIs and one
// planted diff on rank 5 after its 100th communication. Times the whole -da job (parse, flatten,
// match, diffs, per-rank json, analysis across ranks) against its baseline, the same compare
// writing the csv without -da, and prints the ratio.
// Usage: da_bench [DIR] [MB_PER_RANK]
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>

#include "common/retain_freed_memory.h"
#include "msprobe/compare/jobs/compare_job.h"

namespace {

namespace fs = std::filesystem;

constexpr int kRanks = 8;
constexpr int kCommEvery = 64;
constexpr int kDiffRank = 5;

void AppendTensor(std::string* out, double max, double min, double mean, double norm, bool last) {
  *out += fmt::format(
      "    {{\n     \"type\": \"torch.Tensor\",\n     \"dtype\": \"torch.float32\",\n     \"shape\": [\n      32,\n"
      "      1024\n     ],\n     \"Max\": {},\n     \"Min\": {},\n     \"Mean\": {},\n     \"Norm\": {},\n"
      "     \"requires_grad\": false\n    }}{}\n",
      max, min, mean, norm, last ? "" : ",");
}

// One rank's dump.json of `target_bytes`. The draws depend on the rank only, so both sides agree
// except where `plant_diff` scales one output.
void WriteDump(const fs::path& path, int rank, uint64_t target_bytes, bool plant_diff) {
  std::mt19937_64 rng(1000 + rank);
  std::normal_distribution<double> n(0.0, 1.0);
  fs::create_directories(path.parent_path());
  std::FILE* f = std::fopen(path.c_str(), "wb");
  std::string out = "{\n \"task\": \"statistics\",\n \"level\": \"mix\",\n \"framework\": \"pytorch\",\n"
                    " \"dump_data_dir\": null,\n \"data\": {\n";
  uint64_t written = 0;
  int comm = 0;
  for (uint64_t i = 0; written + out.size() < target_bytes; ++i) {
    std::string entry;
    if (i % kCommEvery == kCommEvery - 1) {
      entry = fmt::format("  \"Distributed.all_reduce.{}.forward\": {{\n   \"input_args\": [\n", comm);
      AppendTensor(&entry, 1, -1, 0, 10, true);
      entry += "   ],\n   \"input_kwargs\": {\n    \"group\": {\n     \"type\": \"str\",\n     \"value\": \"[0, 1, 2, 3, 4, 5, 6, 7]\"\n    }\n   },\n   \"output\": [\n";
      AppendTensor(&entry, 1, -1, 0, 10, true);
      entry += "   ]\n  },\n";
      ++comm;
    } else {
      const double scale = plant_diff && comm == 100 && i % kCommEvery == 10 ? 3.0 : 1.0;
      entry = fmt::format("  \"Functional.linear.{}.forward\": {{\n   \"input_args\": [\n", i);
      for (int k = 0; k < 3; ++k) AppendTensor(&entry, std::abs(n(rng)) + 1, -std::abs(n(rng)) - 1, n(rng) * 0.01, std::abs(n(rng)) * 100, k == 2);
      entry += "   ],\n   \"input_kwargs\": {},\n   \"output\": [\n";
      AppendTensor(&entry, (std::abs(n(rng)) + 1) * scale, -std::abs(n(rng)) - 1, n(rng) * 0.01, std::abs(n(rng)) * 100 * scale, true);
      entry += "   ]\n  },\n";
    }
    out += entry;
    if (out.size() > (1 << 22)) {
      std::fwrite(out.data(), 1, out.size(), f);
      written += out.size();
      out.clear();
    }
  }
  out += "  \"Functional.relu.0.forward\": {}\n }\n}\n";
  std::fwrite(out.data(), 1, out.size(), f);
  std::fclose(f);
}

double Seconds(const msprobe::compare::CompareOptions& options, msprobe::compare::CompareReport* report) {
  const auto start = std::chrono::steady_clock::now();
  auto result = msprobe::compare::RunCompare(options);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!result.ok()) {
    fmt::print(stderr, "da_bench: {}\n", result.status().ToString());
    std::exit(1);
  }
  *report = std::move(*result);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  const fs::path dir = argc > 1 ? argv[1] : "/tmp/msprobe_bench/da";
  const uint64_t mb = argc > 2 ? std::stoull(argv[2]) : 200;
  msprobe::cli::RetainFreedMemory();  // as msprobe-compare does
  for (int rank = 0; rank < kRanks; ++rank) {
    for (const char* side : {"npu", "bench"}) {
      const fs::path path = dir / side / "step0" / fmt::format("rank{}", rank) / "dump.json";
      if (fs::exists(path)) continue;
      fmt::print(stderr, "writing {}\n", path.string());
      WriteDump(path, rank, mb << 20, std::string(side) == "npu" && rank == kDiffRank);
    }
  }
  msprobe::compare::CompareOptions options;
  options.target_path = (dir / "npu" / "step0").string();
  options.golden_path = (dir / "bench" / "step0").string();
  options.output_dir = (dir / "out_da").string();
  options.diff_analyze = true;
  options.write_csv = options.write_xlsx = false;
  msprobe::compare::CompareReport da;
  const double da_s = Seconds(options, &da);

  options.output_dir = (dir / "out_csv").string();
  options.diff_analyze = false;
  options.write_csv = true;
  msprobe::compare::CompareReport plain;
  const double plain_s = Seconds(options, &plain);

  uint64_t rows = 0;
  for (const auto& pair : da.pairs) rows += pair.rows;
  fmt::print("-da, {} ranks x {} MB per side: {:.2f} s ({} rows); first diff {} on {} node(s){}\n", kRanks, mb, da_s,
             rows, msprobe::compare::DiffStageName(da.first_diff.stage), da.first_diff.nodes.size(),
             da.first_diff.nodes.empty() ? "" : ": " + da.first_diff.nodes.front().api);
  fmt::print("baseline (compare, csv only): {:.2f} s; ratio -da / baseline = {:.2f}\n", plain_s, da_s / plain_s);
  for (const fs::path& out : {dir / "out_da", dir / "out_csv"}) fs::remove_all(out);
  return 0;
}
