// A statistics or md5 compare streams its target in batches (docs/compare.md §6.1). Whatever the batch
// size, every output must be what the whole compare in memory writes: the csv, json, xlsx (every
// cell of every sheet), -da's per-rank json and first diff, summary counts, first error, worst rows
// and JUnit. The dumps here are made so that batches cut between a forward call and the backward
// call renumbered after it, unmatched rows, warnings and errors fall in different batches.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "msprobe/compare/jobs/compare_job.h"
#include "msprobe/compare/xlsx/xlsx_reader.h"
#include "test_support.h"

namespace msprobe::compare {
namespace {

namespace fs = std::filesystem;
using msprobe::testing::ReadFile;
using msprobe::testing::TempDir;

struct DumpShape {
  bool md5 = false;
  bool golden = false;           // the golden side: some values scaled, one API missing
  int rank = 0;
  bool framework_last = false;   // "framework": "mindspore" after "data" (target only)
  bool joined_grads = false;     // two parameters_grad entries that -da reads as one API batch
};

std::string Tensor(double max, double norm, bool md5, int seed) {
  std::string t = fmt::format(
      "{{\"type\": \"torch.Tensor\", \"dtype\": \"torch.float32\", \"shape\": [2, 3], \"Max\": {}, \"Min\": -1.5, "
      "\"Mean\": 0.25, \"Norm\": {}, \"requires_grad\": false",
      max, norm);
  if (md5) t += fmt::format(", \"md5\": \"{:08x}\"", 0x1000 + seed);
  return t + "}";
}

// 30 linear calls, each with its backward, an all_reduce every 7th; the golden side scales the
// outputs of calls 9 and 20 (an error and a warning) and lacks call 14.
std::string Dump(const DumpShape& shape) {
  std::string data;
  int comm = 0;
  for (int i = 0; i < 30; ++i) {
    if (shape.golden && i == 14) continue;
    const double scale = !shape.golden ? 1.0 : i == 9 ? 5.0 : i == 20 ? 1.3 : 1.0;
    const int seed = shape.golden && i == 9 ? 999 : i;
    data += fmt::format(
        "\"Functional.linear.{0}.forward\": {{\"input_args\": [{1}, {2}], \"input_kwargs\": {{}}, \"output\": [{3}]}},\n"
        "\"Functional.linear.{0}.backward\": {{\"input\": [{4}], \"output\": [{5}, {6}]}},\n",
        i, Tensor(1 + i, 10 + i, shape.md5, i), Tensor(2, 3, shape.md5, i + 100),
        Tensor((3 + i) * scale, (30 + i) * scale, shape.md5, seed + 200), Tensor(0.5, 1, shape.md5, i + 300),
        Tensor(0.25, 2, shape.md5, i + 400), Tensor(0.125, 4, shape.md5, i + 500));
    if (i % 7 == 6) {
      data += fmt::format(
          "\"Distributed.all_reduce.{0}.forward\": {{\"input_args\": [{1}], \"input_kwargs\": {{\"group\": "
          "{{\"type\": \"str\", \"value\": \"[0, 1]\"}}}}, \"output\": [{1}]}},\n",
          comm++, Tensor(1, 10 + shape.rank, shape.md5, 600 + i));
    }
  }
  if (shape.joined_grads) {
    // The second key is part of the first and neither forward nor backward: one batch (§8.1).
    for (const char* key : {"Module.fc.Linear.parameters_grad.0", "Module.fc.Linear.parameters_grad"}) {
      data += fmt::format("\"{}\": {{\"weight\": {}}},\n", key, Tensor(shape.golden ? 9 : 1, 1, shape.md5, 700));
    }
  }
  data += "\"Functional.relu.0.forward\": {\"input_args\": [], \"output\": []}\n";
  const std::string head = fmt::format("\"task\": \"statistics\", \"level\": \"mix\"{}",
                                       shape.framework_last ? "" : ", \"framework\": \"pytorch\"");
  const std::string tail = shape.framework_last ? ", \"framework\": \"mindspore\"" : "";
  return "{" + head + ", \"dump_data_dir\": null, \"data\": {\n" + data + "}" + tail + "}\n";
}

void Write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

// The outputs of one run by kind: the output file name without its timestamp → its content, or,
// for a workbook, every cell of every sheet rendered as text.
std::map<std::string, std::string> Outputs(const CompareReport& report) {
  std::map<std::string, std::string> out;
  for (const PairResult& pair : report.pairs) {
    for (const std::string& path : pair.outputs) {
      std::string name = fs::path(path).filename().string();
      name = name.substr(0, name.rfind('_')) + fs::path(path).extension().string();  // drops "_{ts}"
      const std::string bytes = ReadFile(path);
      if (fs::path(path).extension() != ".xlsx") {
        out[name] = bytes;
        continue;
      }
      auto reader = XlsxReader::Open(AsBytes(bytes), path);
      EXPECT_TRUE(reader.ok());
      if (!reader.ok()) continue;
      for (size_t sheet = 0; sheet < reader->sheet_names().size(); ++sheet) {
        std::string& cells = out[name + ":" + reader->sheet_names()[sheet]];
        auto rows = ReadXlsxSheetRows(AsBytes(bytes), path, sheet);
        EXPECT_TRUE(rows.ok());
        if (!rows.ok()) continue;
        for (const auto& row : *rows) {
          for (const XlsxCell& cell : row) cells += fmt::format("{}|{}|{};", static_cast<int>(cell.type), cell.text, cell.number);
          cells += '\n';
        }
      }
    }
  }
  return out;
}

std::string Summary(const CompareReport& report) {
  std::string s;
  for (const PairResult& pair : report.pairs) {
    s += fmt::format("{} {} {} {} {} {}\n", pair.label, pair.mode, pair.rows, pair.passed, pair.warnings, pair.errors);
    for (const auto& ref : {pair.first_error, pair.first_warning}) {
      if (ref) s += fmt::format("  first {} {} {} {}\n", ref->row, ref->npu_name, ref->api, ref->err_message);
    }
    for (const WorstRow& w : pair.worst) s += fmt::format("  worst {} {} {}\n", w.row, w.npu_name, w.value);
  }
  for (const JunitSuite& suite : report.junit) {
    s += suite.name + "\n";
    for (const JunitCase& c : suite.cases) s += fmt::format("  {} {}\n", c.name, c.failures.size());
  }
  for (const RowRef& node : report.first_diff.nodes) s += fmt::format("diff {} {}\n", node.row, node.npu_name);
  return s;
}

// A JUnit report without its times and timestamps, and with the streamed run's directory named as
// the other's.
std::string Normalized(std::string junit) {
  junit = std::regex_replace(junit, std::regex(R"(time="[0-9.]+")"), "time=\"\"");
  junit = std::regex_replace(junit, std::regex("_[0-9]{14}"), "_{ts}");
  return std::regex_replace(junit, std::regex("/streamed/"), "/whole/");
}

class StreamedCompare : public ::testing::Test {
 protected:
  // Runs the compare in memory and streamed in batches of `batch_rows`; both must write the same.
  // `streams`: whether the pairs are expected to stream (or to fall back to the whole compare).
  void ExpectSameAsInMemory(CompareOptions options, size_t batch_rows, bool streams = true) {
    const auto run = [&](size_t rows, const std::string& out) {
      options.stream_batch_rows = rows;
      options.output_dir = dir_.Path(out);
      options.junit_path = dir_.Path(out + ".junit.xml");
      auto report = RunCompare(options);
      EXPECT_TRUE(report.ok()) << report.status().ToString();
      return report.ok() ? std::move(*report) : CompareReport{};
    };
    const CompareReport whole = run(0, "whole");
    const CompareReport streamed = run(batch_rows, "streamed");
    ASSERT_FALSE(whole.pairs.empty());
    uint64_t flagged = 0;
    for (const PairResult& pair : whole.pairs) flagged += pair.errors + pair.warnings;
    EXPECT_GT(flagged, 0u);  // the verdicts are exercised
    for (const PairResult& pair : streamed.pairs) EXPECT_EQ(pair.streamed, streams) << pair.label;
    for (const PairResult& pair : whole.pairs) EXPECT_FALSE(pair.streamed) << pair.label;
    EXPECT_EQ(Summary(streamed), Summary(whole));
    const auto whole_outputs = Outputs(whole), streamed_outputs = Outputs(streamed);
    EXPECT_FALSE(whole_outputs.empty());
    EXPECT_EQ(streamed_outputs, whole_outputs);
    EXPECT_EQ(Normalized(ReadFile(options.junit_path)), Normalized(ReadFile(dir_.Path("whole.junit.xml"))));
  }

  CompareOptions FilePair(const DumpShape& target, const DumpShape& golden) {
    Write(dir_.Path("npu/dump.json"), Dump(target));
    Write(dir_.Path("bench/dump.json"), Dump(golden));
    CompareOptions options;
    options.target_path = dir_.Path("npu/dump.json");
    options.golden_path = dir_.Path("bench/dump.json");
    options.write_json = true;
    return options;
  }

  TempDir dir_;
};

TEST_F(StreamedCompare, StatisticsInBatchesWritesWhatTheWholeCompareWrites) {
  CompareOptions options = FilePair({}, {.golden = true});
  for (const size_t batch : {1, 5, 7, 64}) ExpectSameAsInMemory(options, batch);
}

TEST_F(StreamedCompare, StackColumnAndFailOnWarningAgree) {
  CompareOptions options = FilePair({}, {.golden = true});
  Write(dir_.Path("npu/stack.json"),
        R"j({"Functional.linear.3.forward": ["File a.py, line 1, in f", "y = linear(x)"],)j"
        R"j( "Functional.linear.20.forward": ["File b.py, line 2, in g"]})j");
  options.fail_on = Verdict::kWarning;
  ExpectSameAsInMemory(options, 6);
}

TEST_F(StreamedCompare, Md5InBatchesWritesWhatTheWholeCompareWrites) {
  ExpectSameAsInMemory(FilePair({.md5 = true}, {.md5 = true, .golden = true}), 4);
}

// The target says it is MindSpore only after its data: its batches were read as PyTorch, so the
// pair is compared again in memory, and writes the same.
TEST_F(StreamedCompare, FrameworkAfterDataFallsBackToTheWholeCompare) {
  ExpectSameAsInMemory(FilePair({.framework_last = true}, {.golden = true}), 5, /*streams=*/false);
}

TEST_F(StreamedCompare, DiffAnalyzeAcrossRanksInBatchesAgrees) {
  for (int rank = 0; rank < 2; ++rank) {
    Write(dir_.Path(fmt::format("npu/step0/rank{}/dump.json", rank)), Dump({.rank = rank}));
    Write(dir_.Path(fmt::format("bench/step0/rank{}/dump.json", rank)), Dump({.golden = rank == 1, .rank = rank}));
  }
  CompareOptions options;
  options.target_path = dir_.Path("npu/step0");
  options.golden_path = dir_.Path("bench/step0");
  options.diff_analyze = true;
  options.write_json = true;  // the xlsx marks the first diff; every writer runs
  ExpectSameAsInMemory(options, 9);
}

// -da reads the two gradient entries as one batch; streamed one entry at a time, they would be two:
// the pair is compared again in memory.
TEST_F(StreamedCompare, DiffAnalyzeBatchAcrossBatchesFallsBackToTheWholeCompare) {
  CompareOptions options = FilePair({.joined_grads = true}, {.golden = true, .joined_grads = true});
  options.diff_analyze = true;
  ExpectSameAsInMemory(options, 1, /*streams=*/false);
}

}  // namespace
}  // namespace msprobe::compare
