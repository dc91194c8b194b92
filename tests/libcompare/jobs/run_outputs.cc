#include "libcompare/jobs/run_outputs.h"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <fstream>
#include <regex>

#include "msprobe/compare/xlsx/xlsx_reader.h"
#include "test_support.h"

namespace msprobe::compare::run_outputs {

namespace fs = std::filesystem;
using msprobe::testing::ReadFile;

namespace {

std::string Tensor(double max, double norm, bool md5, int seed) {
  std::string t = fmt::format(
      "{{\"type\": \"torch.Tensor\", \"dtype\": \"torch.float32\", \"shape\": [2, 3], \"Max\": {}, \"Min\": -1.5, "
      "\"Mean\": 0.25, \"Norm\": {}, \"requires_grad\": false",
      max, norm);
  if (md5) t += fmt::format(", \"md5\": \"{:08x}\"", 0x1000 + seed);
  return t + "}";
}

}  // namespace

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

namespace {

CompareOptions Options(const fs::path& target, const fs::path& golden) {
  CompareOptions options;
  options.target_path = target.string();
  options.golden_path = golden.string();
  options.write_json = true;
  return options;
}

}  // namespace

CompareOptions FileDumps(const fs::path& root, const DumpShape& target, const DumpShape& golden) {
  Write(root / "npu/dump.json", Dump(target));
  Write(root / "bench/dump.json", Dump(golden));
  return Options(root / "npu/dump.json", root / "bench/dump.json");
}

CompareOptions RankDumps(const fs::path& root, int ranks, bool md5) {
  for (int rank = 0; rank < ranks; ++rank) {
    Write(root / fmt::format("npu/step0/rank{}/dump.json", rank), Dump({.md5 = md5, .rank = rank}));
    Write(root / fmt::format("bench/step0/rank{}/dump.json", rank),
          Dump({.md5 = md5, .golden = rank % 2 == 1, .rank = rank}));
  }
  return Options(root / "npu/step0", root / "bench/step0");
}

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
      if (ref) s += fmt::format("  first {} {} {} {}\n", ref->row, ref->target_name, ref->api, ref->err_message);
    }
    for (const WorstRow& w : pair.worst) s += fmt::format("  worst {} {} {}\n", w.row, w.target_name, w.value);
  }
  for (const JunitSuite& suite : report.junit) {
    s += suite.name + "\n";
    for (const JunitCase& c : suite.cases) s += fmt::format("  {} {}\n", c.name, c.failures.size());
  }
  for (const RowRef& node : report.first_diff.nodes) s += fmt::format("diff {} {}\n", node.row, node.target_name);
  return s;
}

std::string NormalizedJunit(std::string junit, const std::string& from, const std::string& to) {
  junit = std::regex_replace(junit, std::regex(R"(time="[0-9.]+")"), "time=\"\"");
  junit = std::regex_replace(junit, std::regex("_[0-9]{14,}"), "_{ts}");
  size_t at = 0;
  while ((at = junit.find(from, at)) != std::string::npos) {
    junit.replace(at, from.size(), to);
    at += to.size();
  }
  return junit;
}

}  // namespace msprobe::compare::run_outputs
