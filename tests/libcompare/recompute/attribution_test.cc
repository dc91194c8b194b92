// --attribute on the dumps of tests/data/recompute (made by torch, gen_recompute_dumps.py): the
// facts its README states — the replaced gelu is the target's own error; the perturbed W2 enters at
// Functional.linear.1 through input_args.1; everything after either is inherited; the golden against
// itself is clean.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "msprobe/compare/jobs/compare_job.h"
#include "test_support.h"

namespace msprobe::compare {
namespace {

struct Attributed {
  CompareReport report;
  std::vector<std::pair<std::string, std::string>> origins;  // (API, Origin) in execution order
  nlohmann::json summary;
};

// `target` against the golden dump, csv only, with --attribute.
CompareOptions AttributeOptions(const std::string& target, const testing::TempDir& tmp) {
  const std::string root = testing::TestData("recompute/");
  CompareOptions options;
  options.target_path = root + target + "/step0/rank0";
  options.golden_path = root + "golden/step0/rank0";
  options.output_dir = tmp.Path("out");
  options.write_xlsx = false;
  options.attribute = true;
  return options;
}

Attributed Attribute(const CompareOptions& options) {
  Attributed out;
  auto report = RunCompare(options);
  EXPECT_TRUE(report.ok()) << report.status().ToString();
  if (!report.ok()) return out;
  out.report = *report;
  std::ifstream csv(report->pairs.at(0).outputs.at(0));
  std::string line;
  std::getline(csv, line);
  EXPECT_TRUE(line.ends_with(",Origin,NPU self err,Bench self err")) << line;
  while (std::getline(csv, line)) {
    // The name is the first field, Origin the third from the end (no field here holds a comma after it).
    const std::string api = line.substr(0, line.find(".forward") + 8);
    size_t end = line.size();
    for (int i = 0; i < 2; ++i) end = line.rfind(',', end - 1);
    const size_t begin = line.rfind(',', end - 1) + 1;
    if (out.origins.empty() || out.origins.back().first != api) out.origins.emplace_back(api, line.substr(begin, end - begin));
  }
  out.summary = nlohmann::json::parse(testing::ReadFile(report->summary_file));
  return out;
}

Attributed Attribute(const std::string& target, const testing::TempDir& tmp) {
  return Attribute(AttributeOptions(target, tmp));
}

using Origins = std::vector<std::pair<std::string, std::string>>;

TEST(AttributionTest, ReplacedActivationIsTheOpsOwnError) {
  testing::TempDir tmp;
  const Attributed a = Attribute("target_op", tmp);
  EXPECT_EQ(a.origins, (Origins{{"Functional.linear.0.forward", "clean"},
                                {"Functional.gelu.0.forward", "op"},
                                {"Functional.linear.1.forward", "inherited"},
                                {"Functional.layer_norm.0.forward", "inherited"},
                                {"Tensor.__add__.0.forward", "inherited"},
                                {"Functional.softmax.0.forward", "inherited"},
                                {"Torch.sum.0.forward", "inherited"}}));
  const nlohmann::json& cause = a.summary.at("first_cause");
  EXPECT_EQ(cause.at("api"), "Functional.gelu.0.forward");
  EXPECT_EQ(cause.at("kind"), "op");
  EXPECT_TRUE(cause.at("argument").is_null());
  EXPECT_EQ(a.summary.at("pairs").at(0).at("first_cause"), cause);
}

TEST(AttributionTest, PerturbedWeightEntersAtItsFirstConsumer) {
  testing::TempDir tmp;
  const Attributed a = Attribute("target_input", tmp);
  EXPECT_EQ(a.origins, (Origins{{"Functional.linear.0.forward", "clean"},
                                {"Functional.gelu.0.forward", "clean"},
                                {"Functional.linear.1.forward", "input"},
                                {"Functional.layer_norm.0.forward", "inherited"},
                                {"Tensor.__add__.0.forward", "inherited"},
                                {"Functional.softmax.0.forward", "inherited"},
                                {"Torch.sum.0.forward", "inherited"}}));
  const nlohmann::json& cause = a.summary.at("first_cause");
  EXPECT_EQ(cause.at("api"), "Functional.linear.1.forward");
  EXPECT_EQ(cause.at("kind"), "input");
  EXPECT_EQ(cause.at("argument"), "Functional.linear.1.forward.input.1");  // W2, input_args.1
  ASSERT_TRUE(a.report.pairs.at(0).first_cause);
}

TEST(AttributionTest, GoldenAgainstItselfIsClean) {
  testing::TempDir tmp;
  const Attributed a = Attribute("golden", tmp);
  ASSERT_EQ(a.origins.size(), 7u);
  for (const auto& [api, origin] : a.origins) EXPECT_EQ(origin, "clean") << api;
  EXPECT_TRUE(a.summary.at("first_cause").is_null());
}

TEST(AttributionTest, StatisticsCompareIsUnknown) {
  testing::TempDir tmp;
  CompareOptions options = AttributeOptions("target_op", tmp);
  options.diff_analyze = true;  // -da compares statistics
  auto report = RunCompare(options);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  const std::vector<std::string>& outputs = report->pairs.at(0).outputs;
  const auto csv_file = std::find_if(outputs.begin(), outputs.end(), [](const std::string& f) { return f.ends_with(".csv"); });
  ASSERT_NE(csv_file, outputs.end());
  const std::string csv = testing::ReadFile(*csv_file);
  EXPECT_NE(csv.find(",Origin,NPU self err,Bench self err\n"), std::string::npos);
  EXPECT_EQ(csv.find(",op,"), std::string::npos);
  EXPECT_NE(csv.find(",unknown,N/A,N/A\n"), std::string::npos);
}

// target_op against the golden, the target a copy without its tensor file `file`.
CompareOptions TargetOpWithout(const std::string& file, const testing::TempDir& tmp) {
  CompareOptions options = AttributeOptions("target_op", tmp);
  const std::filesystem::path copy = tmp.root() / "target";
  std::filesystem::copy(options.target_path, copy, std::filesystem::copy_options::recursive);
  std::filesystem::permissions(copy / "dump_tensor_data", std::filesystem::perms::owner_all,
                               std::filesystem::perm_options::add);
  std::filesystem::remove(copy / "dump_tensor_data" / file);
  options.target_path = copy.string();
  return options;
}

// The target's gelu input file removed: its recompute reads no tensor (unreadable), and compare sees an
// input it cannot measure. Neither names a cause: the origin is unknown, not "input" (an unread tensor
// is no evidence of a difference) nor "op".
TEST(AttributionTest, CallWithAnUnreadTensorNamesNoCause) {
  testing::TempDir tmp;
  const Attributed a = Attribute(TargetOpWithout("Functional.gelu.0.forward.input.0.pt", tmp));
  EXPECT_EQ(a.origins, (Origins{{"Functional.linear.0.forward", "clean"},
                                {"Functional.gelu.0.forward", "unknown"},
                                {"Functional.linear.1.forward", "inherited"},
                                {"Functional.layer_norm.0.forward", "inherited"},
                                {"Tensor.__add__.0.forward", "inherited"},
                                {"Functional.softmax.0.forward", "inherited"},
                                {"Torch.sum.0.forward", "inherited"}}));
  EXPECT_TRUE(a.summary.at("first_cause").is_null());
}

// An output that could not be read names no cause downstream either: the next API's input of its dtype
// and shape may be that output, so its difference does not enter there from outside the ops.
TEST(AttributionTest, InputThatMayBeAnUnreadOutputNamesNoCause) {
  testing::TempDir tmp;
  const Attributed a = Attribute(TargetOpWithout("Functional.gelu.0.forward.output.0.pt", tmp));
  ASSERT_GE(a.origins.size(), 3u);
  EXPECT_EQ(a.origins[1], (std::pair<std::string, std::string>{"Functional.gelu.0.forward", "unknown"}));
  EXPECT_EQ(a.origins[2], (std::pair<std::string, std::string>{"Functional.linear.1.forward", "unknown"}));
  EXPECT_TRUE(a.summary.at("first_cause").is_null());
}

// The same for an API without a float64 reference: the compare could not read its input, so whether
// that input differs (and where from) is unknown, not an input difference entering there.
TEST(AttributionTest, ApiWithoutAReferenceAndAnUnreadInputNamesNoCause) {
  testing::TempDir tmp;
  CompareOptions options = AttributeOptions("golden", tmp);
  for (std::string* side : {&options.target_path, &options.golden_path}) {
    const std::filesystem::path copy = tmp.root() / (side == &options.target_path ? "target" : "golden");
    std::filesystem::copy(*side, copy, std::filesystem::copy_options::recursive);
    std::filesystem::permissions(copy, std::filesystem::perms::owner_all, std::filesystem::perm_options::add);
    std::filesystem::permissions(copy / "dump.json", std::filesystem::perms::owner_write, std::filesystem::perm_options::add);
    std::string json = testing::ReadFile((copy / "dump.json").string());
    const std::string key = "\"Torch.sum.0.forward\"";  // the last API, renamed to one docs/ops.md §3 does not list
    ASSERT_NE(json.find(key), std::string::npos);
    json.replace(json.find(key), key.size(), "\"Torch.nosuchop.0.forward\"");
    std::ofstream(copy / "dump.json", std::ios::trunc) << json;
    *side = copy.string();
  }
  std::filesystem::permissions(tmp.root() / "target/dump_tensor_data", std::filesystem::perms::owner_all,
                               std::filesystem::perm_options::add);
  std::filesystem::remove(tmp.root() / "target/dump_tensor_data/Torch.sum.0.forward.input.0.pt");
  const Attributed a = Attribute(options);
  ASSERT_FALSE(a.origins.empty());
  // The rows keep their data names (docs/compare.md §2.3), so the table names the API Torch.sum still.
  EXPECT_EQ(a.origins.back(), (std::pair<std::string, std::string>{"Torch.sum.0.forward", "unknown"}));
  EXPECT_TRUE(a.summary.at("first_cause").is_null());
}

TEST(AttributionTest, WithoutTheFlagTheColumnsAndSummaryAreMsprobes) {
  testing::TempDir tmp;
  CompareOptions options = AttributeOptions("target_op", tmp);
  options.attribute = false;
  auto report = RunCompare(options);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  const std::string csv = testing::ReadFile(report->pairs.at(0).outputs.at(0));
  EXPECT_EQ(csv.substr(0, csv.find('\n')).find("Origin"), std::string::npos);
  EXPECT_FALSE(nlohmann::json::parse(testing::ReadFile(report->summary_file)).contains("first_cause"));
}

}  // namespace
}  // namespace msprobe::compare
