// Benchmark of msprobe-merge: RANKS statistics-mode compare results of ROWS rows each, written
// deterministically as our csv (and, with "xlsx", as our xlsx) if missing, then the whole merge job
// timed (discovery, parallel reads, extraction, join, xlsx write) with its peak RSS. The config
// selects every row and three indexes, the worst case for the join and the output.
// Usage: merge_bench [DIR] [RANKS] [ROWS] [csv|xlsx]
#include <fmt/format.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>

#include "msprobe/compare/output/csv_writer.h"
#include "msprobe/compare/merge/merge_job.h"
#include "msprobe/dump/text/python_format.h"
#include "msprobe/compare/table/result_table.h"
#include "msprobe/compare/output/xlsx_writer.h"

namespace {

namespace fs = std::filesystem;
using namespace msprobe::compare;
using msprobe::PythonFloatRepr;

const char* const kApis[] = {"Distributed.all_reduce", "Functional.linear", "Tensor.__mul__", "Torch.matmul"};

// Rank `rank`'s result: the same names on every rank, values drawn per (row, rank); rank 7 drifts.
ResultTable MakeTable(int rank, size_t rows) {
  ResultTable table;
  table.mode = CompareMode::kSummary;
  std::mt19937_64 rng(1000 + rank);
  std::lognormal_distribution<double> diff(-5, 1);
  table.rows.reserve(rows);
  for (size_t i = 0; i < rows; ++i) {
    ResultRow r;
    const size_t call = i / 8;
    r.target_name =
        fmt::format("{}.{}.forward.{}.{}", kApis[call % 4], call / 4, i % 8 < 4 ? "input" : "output", i % 4);
    r.golden_name = r.target_name;
    r.target_dtype = r.golden_dtype = "torch.float32";
    r.target_shape = r.golden_shape = "[32, 1024]";
    r.target_requires_grad = r.golden_requires_grad = "False";
    const bool scalar = i % 97 == 3;  // a non-tensor argument: N/A metrics, replaced by the stats
    const double scale = rank == 7 ? 50 : 1;
    for (int k = 0; k < 8; ++k) {
      if (scalar) {
        r.metrics.push_back(Cell::NA());
      } else if (k < 4) {
        r.metrics.push_back(Cell::Text(PythonFloatRepr(diff(rng) * scale)));
      } else {
        r.metrics.push_back(Cell::Text(PythonFloatRepr(diff(rng) * 100 * scale) + "%"));
      }
    }
    for (int k = 0; k < 4; ++k) {
      r.target_stats[k] = scalar ? Cell::Text("[0, 1]") : Cell::Float(diff(rng) * 1000);
      r.golden_stats[k] = scalar ? Cell::Text("[0, 1]") : Cell::Float(diff(rng) * 1000);
    }
    r.requires_grad_consistent = true;
    table.rows.push_back(std::move(r));
  }
  return table;
}

uint64_t PeakRssMiB() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<uint64_t>(usage.ru_maxrss) / 1024;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : "/tmp/msprobe_bench_merge";
  const int ranks = argc > 2 ? std::stoi(argv[2]) : 64;
  const size_t rows = argc > 3 ? std::stoul(argv[3]) : 100'000;
  const std::string format = argc > 4 ? argv[4] : "csv";
  const std::string input = fmt::format("{}/{}_{}x{}", dir, format, ranks, rows);
  fs::create_directories(input);
  for (int rank = 0; rank < ranks; ++rank) {
    const std::string path = fmt::format("{}/compare_result_rank{}_20260101000000.{}", input, rank, format);
    if (fs::exists(path)) continue;
    const ResultTable table = MakeTable(rank, rows);
    auto written = format == "xlsx" ? WriteXlsx(path, table) : WriteCsv(path, table);
    if (!written.ok()) {
      fmt::print(stderr, "{}\n", written.status().ToString());
      return 1;
    }
  }
  const std::string config = dir + "/merge_bench.yaml";
  std::FILE* f = std::fopen(config.c_str(), "w");
  fmt::print(f, "api:\n- Distributed.all_reduce\n- Functional.linear\n- Tensor.__mul__\n- Torch.matmul\n"
                "compare_index:\n- Max diff\n- L2norm diff\n- MeanRelativeErr\n");
  std::fclose(f);

  uint64_t bytes = 0;
  for (const auto& e : fs::directory_iterator(input)) bytes += e.file_size();
  MergeOptions options;
  options.input_dir = input;
  options.output_dir = dir + "/out";
  options.config_path = config;
  const uint64_t rss_before = PeakRssMiB();
  const auto start = std::chrono::steady_clock::now();
  auto report = RunMerge(options);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!report.ok()) {
    fmt::print(stderr, "{}\n", report.status().ToString());
    return 1;
  }
  fmt::print("merged {} {} results ({:.0f} MB) of {} rows: {} rows x {} sheets in {:.2f} s; peak RSS {} MiB "
             "(before the merge {} MiB); output {:.0f} MB\n",
             report->ranks.size(), format, bytes / 1e6, rows, report->rows, report->sheets.size(), seconds,
             PeakRssMiB(), rss_before, fs::file_size(report->output_path) / 1e6);
  fs::remove(report->output_path);
  return 0;
}
