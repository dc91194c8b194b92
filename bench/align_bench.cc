// Benchmark of msprobe-compare --align (docs/compare.md §3.8): a statistics pair of about 1 M target
// rows, its golden the same run on another device (every statistic off by a relative 1e-3) and its
// target with 10% of its calls renamed (Functional.linear → Torch.linear, ...: an eighth of its forward
// calls, so the backward numbering stays; RENAMED_PER_MILLE of the forward calls when given). Writes the pair deterministically if missing, then runs, each in a child
// process of its own so each peak RSS is its own: the plain compare as msprobe-compare runs it
// (streamed), the plain compare in memory, the compare with --align, and the alignment step alone
// (MatchRows then AlignUnmatchedCalls on the flattened rows, with how many renamed rows it paired
// rightly). Usage: align_bench [DIR] [TARGET_ROWS] [RENAMED_PER_MILLE]
#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <string>

#include "common/retain_freed_memory.h"
#include "msprobe/compare/jobs/compare_job.h"
#include "msprobe/compare/rows/call_alignment.h"
#include "msprobe/compare/rows/flatten.h"

namespace {

namespace fs = std::filesystem;

// One tensor record in msprobe's json.dump(indent=1) layout, its statistics drawn by `rng` and scaled.
std::string TensorJson(std::mt19937_64& rng, double scale, const char* shape) {
  std::normal_distribution<double> n(0.0, 1.0);
  const double max = std::abs(n(rng)) + 1, min = -std::abs(n(rng)) - 1, mean = n(rng) * 0.01, norm = std::abs(n(rng)) * 100;
  return fmt::format("    {{\n     \"type\": \"torch.Tensor\",\n     \"dtype\": \"torch.float32\",\n     \"shape\": {},\n"
                     "     \"Max\": {},\n     \"Min\": {},\n     \"Mean\": {},\n     \"Norm\": {},\n"
                     "     \"requires_grad\": false\n    }}",
                     shape, max * scale, min * scale, mean * scale, norm * scale);
}

// The kinds of call the dump cycles through: API, inputs, outputs.
struct CallKind {
  const char* api;
  int inputs, outputs;
  bool backward;
};
constexpr CallKind kKinds[] = {{"Functional.linear", 3, 1, false}, {"Tensor.__add__", 2, 1, false},
                               {"Functional.relu", 1, 1, false},   {"Functional.softmax", 1, 1, false},
                               {"Functional.linear", 1, 3, true}};

// Whether the target renames forward call `i`, which it does to `per_mille` of them (hashed, so spread).
bool Renamed(uint64_t i, uint64_t per_mille) { return (i * 0x9E3779B97F4A7C15ull >> 32) % 1000 < per_mille; }

// A target (`renamed`) or golden dump of about `rows` rows; both draw the same values.
void WriteDump(const std::string& path, uint64_t rows, double scale, uint64_t renamed_per_mille) {
  std::mt19937_64 rng(42);
  std::FILE* f = std::fopen(path.c_str(), "wb");
  std::fputs("{\n \"task\": \"statistics\",\n \"level\": \"L1\",\n \"framework\": \"pytorch\",\n"
             " \"dump_data_dir\": null,\n \"data\": {\n", f);
  uint64_t written = 0, counts[std::size(kKinds)] = {};
  for (uint64_t call = 0; written < rows; ++call) {
    const size_t k = call % std::size(kKinds);
    const CallKind& kind = kKinds[k];
    const uint64_t n = kind.backward ? counts[0] - 1 : counts[k]++;  // a linear's backward follows it
    std::string api = kind.api;
    if (!kind.backward && Renamed(call, renamed_per_mille)) api = "Torch" + api.substr(api.find('.'));
    std::string entry = fmt::format("{}  \"{}.{}.{}\": {{\n   \"input_args\": [\n", call ? ",\n" : "", api, n,
                                    kind.backward ? "backward" : "forward");
    for (int i = 0; i < kind.inputs; ++i) entry += TensorJson(rng, scale, "[\n      32,\n      1024\n     ]") + (i + 1 < kind.inputs ? ",\n" : "\n");
    entry += "   ],\n   \"input_kwargs\": {},\n   \"output\": [\n";
    for (int i = 0; i < kind.outputs; ++i) entry += TensorJson(rng, scale, "[\n      32,\n      1024\n     ]") + (i + 1 < kind.outputs ? ",\n" : "\n");
    entry += "   ]\n  }";
    std::fputs(entry.c_str(), f);
    written += kind.inputs + kind.outputs;
  }
  std::fputs("\n }\n}\n", f);
  std::fclose(f);
}

// Runs `work` in a child process; prints its line and the child's wall time and peak RSS.
void InChild(const std::string& what, const std::function<std::string()>& work) {
  int out[2];
  if (pipe(out) != 0) return;
  const pid_t pid = fork();
  if (pid == 0) {
    close(out[0]);
    const auto start = std::chrono::steady_clock::now();
    const std::string line = work();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::string text = fmt::format("{:.2f}\t{}", seconds, line);
    if (write(out[1], text.data(), text.size()) < 0) _exit(1);
    _exit(0);
  }
  close(out[1]);
  std::string text;
  char buffer[256];
  for (ssize_t n; (n = read(out[0], buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<size_t>(n));
  close(out[0]);
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  const size_t tab = text.find('\t');
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || tab == std::string::npos) {
    fmt::print("{:<44} failed\n", what);
    return;
  }
  fmt::print("{:<44} {:>7} s  peak RSS {:>6.0f} MB  {}\n", what, text.substr(0, tab),
             static_cast<double>(usage.ru_maxrss) / 1024, text.substr(tab + 1));
}

std::string Compare(const fs::path& dir, bool align, bool streamed) {
  msprobe::compare::CompareOptions options;
  options.target_path = (dir / "target" / "dump.json").string();
  options.golden_path = (dir / "golden" / "dump.json").string();
  options.output_dir = (dir / "out").string();
  options.write_xlsx = false;
  options.align = align;
  if (!streamed) options.stream_batch_rows = 0;
  auto report = msprobe::compare::RunCompare(options);
  if (!report.ok()) return "error: " + report.status().ToString();
  // Rows left unmatched: "N/A" in Bench Name, the second column (no name here holds a comma).
  uint64_t unmatched = 0;
  for (const std::string& output : report->pairs[0].outputs) {  // past 1 M rows, the csv comes in parts
    if (!output.ends_with(".csv")) continue;
    std::ifstream csv(output);
    for (std::string line; std::getline(csv, line);) unmatched += line.find(",N/A,") == line.find(',');
  }
  fs::remove_all(options.output_dir);
  return fmt::format("{} rows, {} unmatched", report->pairs[0].rows, unmatched);
}

// The alignment step alone, timed within the child; and how many renamed rows it paired rightly.
std::string AlignStep(const fs::path& dir) {
  using namespace msprobe::compare;
  auto target = FlattenDump((dir / "target" / "dump.json").string(), "");
  auto golden = FlattenDump((dir / "golden" / "dump.json").string(), "");
  if (!target.ok() || !golden.ok()) return "flatten failed";
  std::vector<RowPair> pairs = MatchRows(target->rows, golden->rows, {});
  const auto start = std::chrono::steady_clock::now();
  const std::vector<float> scores = AlignUnmatchedCalls(target->rows, golden->rows, {}, {}, &pairs);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  size_t renamed = 0, right = 0, wrong = 0;
  for (size_t i = 0; i < pairs.size(); ++i) {
    const std::string& name = target->rows[pairs[i].target].name;
    const bool is_renamed = name.starts_with("Torch.");
    renamed += is_renamed;
    if (scores[i] == kNotAligned) continue;
    const bool is_right =
        is_renamed && golden->rows[*pairs[i].golden].name.substr(golden->rows[*pairs[i].golden].name.find('.')) ==
                          name.substr(name.find('.'));
    (is_right ? right : wrong) += 1;
  }
  return fmt::format("AlignUnmatchedCalls {:.2f} s; {} of {} renamed rows paired rightly, {} wrongly", seconds, right,
                     renamed, wrong);
}

}  // namespace

int main(int argc, char** argv) {
  const fs::path dir = argc > 1 ? argv[1] : "/tmp/msprobe_bench/align";
  const uint64_t rows = argc > 2 ? std::stoull(argv[2]) : 1'000'000;
  const uint64_t per_mille = argc > 3 ? std::stoull(argv[3]) : 125;  // of the forward calls: 10% of all calls
  const fs::path target = dir / "target" / "dump.json", golden = dir / "golden" / "dump.json";
  if (!fs::exists(target) || !fs::exists(golden)) {
    fs::create_directories(target.parent_path());
    fs::create_directories(golden.parent_path());
    WriteDump(target.string(), rows, 1.0, per_mille);
    WriteDump(golden.string(), rows, 1.001, 0);
  }
  fmt::print("statistics pair, {:.0f} MB of JSON, {:.1f}% of the target's forward calls renamed\n",
             static_cast<double>(fs::file_size(target) + fs::file_size(golden)) / 1e6, per_mille / 10.0);
  msprobe::cli::RetainFreedMemory();  // as msprobe-compare does
  InChild("compare (streamed, as msprobe-compare runs)", [&] { return Compare(dir, false, true); });
  InChild("compare in memory", [&] { return Compare(dir, false, false); });
  InChild("compare --align (in memory)", [&] { return Compare(dir, true, false); });
  InChild("flatten + match + align (no outputs)", [&] { return AlignStep(dir); });
  return 0;
}
