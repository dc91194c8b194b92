// Benchmark of msprobe-dump consistency (docs/consistency.md): one step of RANKS generated statistics
// dumps (default 1,000) against the time to stream-parse the same dump.json files (StreamDumpJson,
// entries visited and dropped), measured in the same run, warm page cache. Each rank's dump.json is
// about KB_PER_FILE KB: layers of Functional.linear forward/backward, module parameters, parameter
// gradients and the all_reduce of each (its result alike on every rank, except rank RANKS/2's first,
// changed in its last digit). Reports MB/s of JSON for both, their ratio, the findings and peak RSS.
// The baseline parses on one thread; the job reads the ranks on all cores (TBB).
// Usage: consistency_bench [DIR] [KB_PER_FILE] [RANKS]
#include <fmt/format.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>

#include "msprobe/compare/consistency/consistency_job.h"
#include "stream_parse_baseline.h"

namespace {

namespace fs = std::filesystem;

// One tensor's statistics in msprobe's json.dump(indent=1) layout at an argument's depth.
std::string Stats(std::mt19937_64& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  const double a = n(rng), b = n(rng);
  return fmt::format(
      "    {{\n     \"type\": \"torch.Tensor\",\n     \"dtype\": \"torch.float32\",\n     \"shape\": [\n      1024,\n"
      "      1024\n     ],\n     \"Max\": {},\n     \"Min\": {},\n     \"Mean\": {},\n     \"Norm\": {},\n"
      "     \"requires_grad\": false\n    }}",
      std::max(a, b), std::min(a, b), (a + b) / 4, std::abs(a) * 60 + 1);
}

// One rank's dump.json of about `bytes`. `shared` draws what every rank holds alike (parameters and
// all_reduce results), `own` what is this rank's.
void WriteRank(const fs::path& dir, uint64_t bytes, int rank, int corrupt_rank) {
  fs::create_directories(dir);
  std::mt19937_64 shared(7), own(1000 + static_cast<uint64_t>(rank));
  std::string data = "{\n \"task\": \"statistics\",\n \"level\": \"mix\",\n \"framework\": \"pytorch\",\n \"data\": {\n";
  const auto entry = [&](const std::string& key, const std::string& in_side, const std::string& in, const std::string& out) {
    data += fmt::format("  \"{}\": {{\n   \"{}\": [\n{}\n   ],\n   \"output\": [\n{}\n   ]\n  }},\n", key, in_side, in, out);
  };
  int layer = 0;
  for (; data.size() < bytes; ++layer) {
    const std::string module = fmt::format("Module.layers.{}.Linear.forward.0", layer);
    data += fmt::format("  \"{}\": {{\n   \"input_args\": [\n{}\n   ],\n   \"parameters\": {{\n    \"weight\": {}\n   }}\n  }},\n",
                        module, Stats(own), Stats(shared).substr(4));
    const std::string x = Stats(own), weight = Stats(shared), y = Stats(own), dy = Stats(own), dx = Stats(own);
    entry(fmt::format("Functional.linear.{}.forward", layer), "input_args", fmt::format("{},\n{}", x, weight), y);
    entry(fmt::format("Functional.linear.{}.backward", layer), "input", dy, dx);
    const std::string grad = Stats(own);
    data += fmt::format("  \"Module.layers.{}.Linear.parameters_grad\": {{\n   \"weight\": [\n{}\n   ]\n  }},\n", layer, grad);
    std::string result = Stats(shared);
    if (rank == corrupt_rank && layer == 0) {
      char& last = result[result.find(",\n     \"Min\"") - 1];  // Max's last digit
      last = last == '9' ? '8' : static_cast<char>(last + 1);
    }
    entry(fmt::format("Distributed.all_reduce.{}.forward", layer), "input_args", grad, result);
  }
  data += "  \"Distributed.barrier.0.forward\": {}\n }\n}\n";
  std::FILE* f = std::fopen((dir / "dump.json").c_str(), "wb");
  std::fwrite(data.data(), 1, data.size(), f);
  std::fclose(f);
}

}  // namespace

int main(int argc, char** argv) {
  const fs::path dir = argc > 1 ? argv[1] : "/tmp/msprobe_bench/consistency";
  const uint64_t kb = argc > 2 ? std::stoull(argv[2]) : 256;
  const int ranks = argc > 3 ? std::stoi(argv[3]) : 1000;
  const fs::path root = dir / fmt::format("step0_{}kb_{}", kb, ranks);
  std::vector<fs::path> files;
  for (int rank = 0; rank < ranks; ++rank) {
    const fs::path rank_dir = root / fmt::format("rank{}", rank);
    if (!fs::exists(rank_dir / "dump.json")) WriteRank(rank_dir, kb << 10, rank, ranks / 2);
    files.push_back(rank_dir / "dump.json");
  }
  double json_mb = 0;
  const double parse = msprobe::bench::StreamParseBaseline(files, &json_mb);
  if (parse < 0) return 1;

  msprobe::compare::ConsistencyOptions options;
  options.input = root.string();
  options.output_dir = (dir / "out").string();
  const auto start = std::chrono::steady_clock::now();
  const auto report = msprobe::compare::RunConsistency(options, {});
  const double seconds = msprobe::bench::SecondsSince(start);
  if (!report.ok()) {
    fmt::print(stderr, "consistency: {}\n", report.status().ToString());
    return 1;
  }
  const msprobe::compare::ConsistencyCounts& n = report->counts;
  fmt::print("consistency: {} arguments, {} inconsistencies, {} suspects: {:.2f} s, {:.0f} MB/s; {:.2f}x the "
             "stream-parse time\n",
             n.arguments, n.inconsistencies, n.suspects, seconds, json_mb / seconds, seconds / parse);
  if (n.inconsistencies > 0) {
    const msprobe::compare::ConsistencyFinding& f = report->findings.front();
    fmt::print("first inconsistency: rank {}, {} ({})\n", f.rank, f.name, f.reason);
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  fmt::print("peak RSS {:.0f} MB\n", static_cast<double>(usage.ru_maxrss) / 1024);
  return 0;
}
