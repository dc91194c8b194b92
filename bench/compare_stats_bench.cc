// Benchmark (c) of the compare issue: statistics-mode compare of a generated dump.json pair of about
// 300 MB each (about 1.2 M rows). Writes the pair deterministically if missing, then times the whole
// msprobe-compare job (parse, flatten, match, diffs, verdicts, csv; then csv + xlsx; then csv + --html,
// the HTML report's overhead, whose page is kept in DIR/out_html) and reports MB/s of JSON, the default
// outputs' time over the csv's alone (the ratio, measured in the same run) and peak RSS.
// The csv-only run is set against issue 30's goals: its MB/s against 200 and against a stream-parse
// of the same two files in the same run (the baseline), its peak RSS against 2 bytes per JSON byte.
// Usage: compare_stats_bench [DIR] [MB_PER_FILE (MiB)]
#include <fmt/format.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>

#include "common/retain_freed_memory.h"
#include "msprobe/compare/jobs/compare_job.h"
#include "stream_parse_baseline.h"

namespace {

namespace fs = std::filesystem;

// One tensor object in msprobe's json.dump(indent=1) layout, nested at the depth of an argument.
void AppendTensor(std::string* out, std::mt19937_64& rng, double scale, bool last) {
  std::normal_distribution<double> n(0.0, 1.0);
  const double max = std::abs(n(rng)) * scale + 1, min = -std::abs(n(rng)) * scale - 1;
  *out += fmt::format(
      "    {{\n     \"type\": \"torch.Tensor\",\n     \"dtype\": \"torch.float32\",\n     \"shape\": [\n      32,\n"
      "      1024\n     ],\n     \"Max\": {},\n     \"Min\": {},\n     \"Mean\": {},\n     \"Norm\": {},\n"
      "     \"requires_grad\": false\n    }}{}\n",
      max, min, n(rng) * 0.01 * scale, std::abs(n(rng)) * 100 * scale, last ? "" : ",");
}

// A dump of `target_bytes`: Functional.linear.N.forward entries with 3 inputs and 1 output.
void WriteDump(const std::string& path, uint64_t target_bytes, double scale) {
  std::mt19937_64 rng(42);  // the same draws on both sides, scaled differently
  std::FILE* f = std::fopen(path.c_str(), "wb");
  std::string head = "{\n \"task\": \"statistics\",\n \"level\": \"L1\",\n \"framework\": \"pytorch\",\n"
                     " \"dump_data_dir\": null,\n \"data\": {\n";
  std::fwrite(head.data(), 1, head.size(), f);
  uint64_t written = head.size();
  for (uint64_t i = 0; written < target_bytes; ++i) {
    std::string entry = fmt::format("  \"Functional.linear.{}.forward\": {{\n   \"input_args\": [\n", i);
    for (int k = 0; k < 3; ++k) AppendTensor(&entry, rng, scale, k == 2);
    entry += "   ],\n   \"input_kwargs\": {},\n   \"output\": [\n";
    AppendTensor(&entry, rng, scale, true);
    entry += "   ]\n  },\n";
    std::fwrite(entry.data(), 1, entry.size(), f);
    written += entry.size();
  }
  const std::string tail = "  \"Functional.relu.0.forward\": {}\n }\n}\n";
  std::fwrite(tail.data(), 1, tail.size(), f);
  std::fclose(f);
}

// User and system seconds of the process so far, every thread's.
double CpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// The process's peak resident set so far, in MB (1e6 bytes, as the JSON's MB).
double PeakRssMb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) * 1024 / 1e6;
}

}  // namespace

int main(int argc, char** argv) {
  const fs::path dir = argc > 1 ? argv[1] : "/tmp/msprobe_bench/stats_compare";
  const uint64_t mb = argc > 2 ? std::stoull(argv[2]) : 300;
  msprobe::cli::RetainFreedMemory();  // as msprobe-compare does
  const fs::path target = dir / "npu" / "dump.json", golden = dir / "bench" / "dump.json";
  if (!fs::exists(target) || !fs::exists(golden)) {
    fs::create_directories(target.parent_path());
    fs::create_directories(golden.parent_path());
    WriteDump(target.string(), mb << 20, 1.0);
    WriteDump(golden.string(), mb << 20, 1.001);
  }
  const double json_mb = static_cast<double>(fs::file_size(target) + fs::file_size(golden)) / 1e6;
  struct Outputs {
    bool xlsx, html;
    const char* name;
  };
  double csv_seconds = 1, csv_cpu = 1, csv_peak_mb = 0;  // the first run's: the process's peak is its own then
  for (const Outputs outputs : {Outputs{false, false, "csv"}, Outputs{true, false, "csv + xlsx"},
                                Outputs{false, true, "csv + html"}}) {
    msprobe::compare::CompareOptions options;
    options.target_path = target.string();
    options.golden_path = golden.string();
    options.output_dir = (dir / (outputs.html ? "out_html" : "out")).string();
    options.write_xlsx = outputs.xlsx;
    options.write_html = outputs.html;
    if (outputs.html) fs::remove_all(options.output_dir);
    const double cpu_start = CpuSeconds();
    const auto start = std::chrono::steady_clock::now();
    auto report = msprobe::compare::RunCompare(options);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double cpu = CpuSeconds() - cpu_start;
    if (!report.ok()) {
      fmt::print(stderr, "compare failed: {}\n", report.status().ToString());
      return 1;
    }
    fmt::print("statistics compare, {:.0f} MB of JSON, {} rows, {}: {:.2f} s ({:.2f} s of CPU), {:.0f} MB/s\n", json_mb,
               report->pairs[0].rows, outputs.name, seconds, cpu, json_mb / seconds);
    if (!outputs.xlsx && !outputs.html) {
      csv_seconds = seconds, csv_cpu = cpu;
      csv_peak_mb = PeakRssMb();
    }
    if (outputs.xlsx) {
      fmt::print("csv + xlsx / csv alone: {:.2f}x ({:.2f}x of CPU; issue #30's goal: at most 3x)\n", seconds / csv_seconds,
                 cpu / csv_cpu);
    }
    if (outputs.html) {
      fmt::print("page {}: {:.1f} MB\n", report->html_file, static_cast<double>(fs::file_size(report->html_file)) / 1e6);
    } else {
      fs::remove_all(options.output_dir);
    }
  }
  double parse_mb = 0;
  const double parse_seconds = msprobe::bench::StreamParseBaseline({target, golden}, &parse_mb);
  if (parse_seconds <= 0) return 1;
  constexpr double kGoalMbPerSecond = 200, kGoalRssPerJsonByte = 2;  // issue 30
  fmt::print("csv alone: {:.0f} MB/s = {:.2f} x the goal of {:.0f} MB/s; {:.2f} x the stream-parse's time\n",
             json_mb / csv_seconds, json_mb / csv_seconds / kGoalMbPerSecond, kGoalMbPerSecond,
             csv_seconds / parse_seconds);
  fmt::print("csv alone: peak RSS {:.0f} MB = {:.2f} bytes per JSON byte (goal <= {:.0f})\n", csv_peak_mb,
             csv_peak_mb / json_mb, kGoalRssPerJsonByte);
  fmt::print("peak RSS {:.0f} MB\n", PeakRssMb());
  return 0;
}
