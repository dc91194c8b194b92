// Benchmark of data2db (docs/trend.md): the trend database of generated multi-rank statistics dumps,
// against the time to stream-parse the same dump.json files (StreamDumpJson, entries visited and
// dropped), measured in the same run, warm page cache. Writes the dumps deterministically if missing:
// RANKS ranks × STEPS steps, each dump.json about MB_PER_FILE MB, a Megatron-like model of two
// micro-batches a step (modules and their Functional APIs, forward and backward, parameter gradients).
// Reports MB/s of JSON for both, their ratio, the rows written and peak RSS.
// Usage: data2db_bench [DIR] [MB_PER_FILE] [RANKS] [STEPS]
#include <fmt/format.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>

#include "msprobe/compare/trend/data2db_job.h"
#include "stream_parse_baseline.h"

namespace {

namespace fs = std::filesystem;

// The statistics of one tensor, in msprobe's json.dump(indent=1) layout at an argument's depth.
std::string Stats(std::mt19937_64& rng, const char* dtype) {
  std::normal_distribution<double> n(0.0, 1.0);
  const double a = n(rng), b = n(rng);
  return fmt::format(
      "    {{\n     \"type\": \"torch.Tensor\",\n     \"dtype\": \"{}\",\n     \"shape\": [\n      8,\n      4096\n"
      "     ],\n     \"Max\": {},\n     \"Min\": {},\n     \"Mean\": {},\n     \"Norm\": {},\n"
      "     \"requires_grad\": true\n    }}",
      dtype, std::max(a, b), std::min(a, b), (a + b) / 4, std::abs(a) * 60 + 1);
}

// One rank's dump.json and construct.json of one step, of about `bytes` of JSON.
void WriteRank(const fs::path& dir, uint64_t bytes, uint64_t seed) {
  fs::create_directories(dir);
  std::mt19937_64 rng(seed);
  std::string data = "{\n \"task\": \"statistics\",\n \"level\": \"mix\",\n \"framework\": \"pytorch\",\n \"data\": {\n";
  std::string construct = "{\n";
  uint64_t linear = 0;
  const auto entry = [&](const std::string& key, const std::string& parent, const char* sides, int tensors) {
    data += fmt::format("  \"{}\": {{\n   \"{}\": [\n", key, sides);
    for (int k = 0; k < tensors; ++k) data += Stats(rng, k == 0 ? "torch.bfloat16" : "torch.float32") + (k + 1 < tensors ? ",\n" : "\n");
    data += "   ],\n   \"output\": [\n" + Stats(rng, "torch.float32") + "\n   ]\n  },\n";
    construct += fmt::format(" \"{}\": {},\n", key, parent.empty() ? "null" : "\"" + parent + "\"");
  };
  for (int micro = 0; data.size() < bytes; ++micro) {
    const std::string root = fmt::format("Module.module.GPTModel.forward.{}", micro);
    construct += fmt::format(" \"{}\": null,\n", root);
    for (int layer = 0; layer < 32 && data.size() < bytes; ++layer) {
      const std::string module = fmt::format("Module.module.decoder.layers.{}.mlp.linear_fc1.RowParallelLinear.forward.{}",
                                             layer, micro);
      entry(fmt::format("Functional.linear.{}.forward", linear), module, "input_args", 3);
      entry(fmt::format("Functional.linear.{}.backward", linear++), module, "input", 1);
      entry(module, root, "input_args", 1);
      data += fmt::format("  \"{}\": {{\n   \"weight\": [\n{}\n   ]\n  }},\n",
                          fmt::format("Module.module.decoder.layers.{}.mlp.linear_fc1.RowParallelLinear.parameters_grad", layer),
                          Stats(rng, "torch.float32"));
    }
  }
  data += "  \"Distributed.barrier.0.forward\": {}\n }\n}\n";
  construct += " \"Distributed.barrier.0.forward\": null\n}\n";
  for (const auto& [name, text] : {std::pair{"dump.json", &data}, std::pair{"construct.json", &construct}}) {
    std::FILE* f = std::fopen((dir / name).c_str(), "wb");
    std::fwrite(text->data(), 1, text->size(), f);
    std::fclose(f);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const fs::path dir = argc > 1 ? argv[1] : "/tmp/msprobe_bench/data2db";
  const uint64_t mb = argc > 2 ? std::stoull(argv[2]) : 16;
  const int ranks = argc > 3 ? std::stoi(argv[3]) : 8, steps = argc > 4 ? std::stoi(argv[4]) : 4;
  const fs::path root = dir / fmt::format("dump_{}mb_{}x{}", mb, ranks, steps);
  std::vector<fs::path> files;
  for (int step = 0; step < steps; ++step) {
    for (int rank = 0; rank < ranks; ++rank) {
      const fs::path rank_dir = root / fmt::format("step{}", step) / fmt::format("rank{}", rank);
      if (!fs::exists(rank_dir / "construct.json")) WriteRank(rank_dir, mb << 20, 1000 * step + rank);
      files.push_back(rank_dir / "dump.json");
    }
  }
  double json_mb = 0;
  const double parse = msprobe::bench::StreamParseBaseline(files, &json_mb);
  if (parse < 0) return 1;

  msprobe::compare::Data2DbOptions options;
  options.data_dir = root.string();
  options.db_dir = (dir / "db").string();
  options.format = msprobe::compare::TrendFormat::kDump;
  const auto start = std::chrono::steady_clock::now();
  const auto report = msprobe::compare::RunData2Db(options, {});
  const double seconds = msprobe::bench::SecondsSince(start);
  if (!report.ok()) {
    fmt::print(stderr, "data2db: {}\n", report.status().ToString());
    return 1;
  }
  fmt::print("data2db: {} rows, {} targets: {:.2f} s, {:.0f} MB/s; {:.2f}x the stream-parse time\n",
             report->dump_db->rows, report->dump_db->targets, seconds, json_mb / seconds, seconds / parse);
  fmt::print("database {}: {:.1f} MB\n", report->dump_db->path,
             static_cast<double>(fs::file_size(report->dump_db->path)) / 1e6);
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  fmt::print("peak RSS {:.0f} MB\n", static_cast<double>(usage.ru_maxrss) / 1024);
  return 0;
}
