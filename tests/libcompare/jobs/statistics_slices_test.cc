// The owner's plan of a statistics pair shared by rows (jobs/statistics_slices.cc): contiguous ranges of
// target entries that cover the dump, each with the golden entries its rows can match, and no plan
// where the outline cannot settle that the slices stand for the whole compare.
#include "jobs/statistics_slices_internal.h"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "jobs/run_plan_internal.h"
#include "jobs/statistics_slice_compare_internal.h"
#include "libcompare/jobs/run_outputs.h"
#include "test_support.h"

namespace msprobe::compare::internal {
namespace {

using msprobe::testing::TempDir;
using namespace msprobe::compare::run_outputs;  // NOLINT: the dump fixtures

std::optional<std::vector<StatisticsSlice>> Plan(const CompareOptions& options, size_t slices) {
  Result<RunPlan> run = PlanRun(options);
  EXPECT_TRUE(run.ok()) << run.status().ToString();
  return PlanStatisticsSlices(options, run->specs.at(0), slices);
}

std::vector<std::string> Keys(const EntrySlice& slice) {
  std::vector<std::string> keys;
  for (const JsonMemberSpan& span : slice.entries) keys.push_back(span.key);
  return keys;
}

TEST(StatisticsSlices, RangesCoverTheTargetEachWithTheGoldenEntriesItMatches) {
  TempDir dir;
  DumpShape golden;
  golden.golden = true;  // lacks call 14: its backward entries number one lower from there
  const auto plan = Plan(FileDumps(dir.root(), DumpShape{}, golden), 3);
  ASSERT_TRUE(plan.has_value());
  ASSERT_EQ(plan->size(), 3u);
  std::vector<std::string> all;
  for (const StatisticsSlice& slice : *plan) {
    EXPECT_GT(slice.target.entries.size(), 15u);  // about a third of the 65 entries each
    EXPECT_EQ(slice.mode, CompareMode::kSummary);
    const std::vector<std::string> keys = Keys(slice.target), golden_keys = Keys(slice.golden);
    all.insert(all.end(), keys.begin(), keys.end());
    for (size_t i = 0; i < keys.size(); ++i) {
      // From call 14 on, the golden's n-th backward entry is call n + 1's, and the 30th is missing.
      std::string expected = keys[i];
      int call = -1;
      if (std::sscanf(keys[i].c_str(), "Functional.linear.%d.", &call) == 1 && call >= 14) {
        const bool backward = keys[i].ends_with("backward");
        expected = !backward ? (call == 14 ? "" : keys[i])
                             : (call == 29 ? "" : fmt::format("Functional.linear.{}.backward", call + 1));
      }
      const bool found = std::find(golden_keys.begin(), golden_keys.end(), expected) != golden_keys.end();
      EXPECT_EQ(found, !expected.empty()) << keys[i];
    }
  }
  ASSERT_EQ(all.size(), 65u);
  EXPECT_EQ(all.front(), "Functional.linear.0.forward");
  EXPECT_EQ(all.back(), "Functional.relu.0.forward");
  EXPECT_EQ(Plan(FileDumps(dir.root() / "md5", {.md5 = true}, {.md5 = true}), 2)->at(0).mode, CompareMode::kMd5);
}

// Each slice compared on its own: its batches together hold every row one process writes, and the
// slices read golden rows (a slice that failed would have the owner compare the pair whole, unseen
// in the outputs).
TEST(StatisticsSlices, TheSlicesTogetherMakeEveryRowOfTheWholeCompare) {
  TempDir dir;
  DumpShape golden;
  golden.golden = true;
  CompareOptions options = FileDumps(dir.root(), DumpShape{}, golden);
  options.output_dir = dir.Path("one");
  const Result<CompareReport> one = RunCompare(options);
  ASSERT_TRUE(one.ok()) << one.status().ToString();
  options.stream_batch_rows = 10;
  Result<RunPlan> run = PlanRun(options);
  ASSERT_TRUE(run.ok());
  const auto plan = PlanStatisticsSlices(options, run->specs.at(0), 3);
  ASSERT_TRUE(plan.has_value());
  const Progress no_progress;
  const PairSteps steps(options, run->mappings, no_progress);
  const StatisticsSliceCompare compare(steps);
  size_t rows = 0, batches = 0, golden_rows = 0;
  for (const StatisticsSlice& slice : *plan) {
    const Result<SliceRead> read = compare.CompareSlice(run->specs[0], slice, [&](const SliceTable& batch) {
      rows += batch.table.rows.size();
      ++batches;
      return Status::Ok();
    });
    ASSERT_TRUE(read.ok()) << read.status().ToString();
    EXPECT_GT(read->golden_rows, 0u);
    EXPECT_FALSE(read->md5);
    EXPECT_TRUE(slice.md5_unseen);  // no md5 among the first entries
    golden_rows += read->golden_rows;
  }
  EXPECT_EQ(rows, one->pairs.at(0).rows);
  EXPECT_GT(batches, 3u);
  EXPECT_GT(golden_rows, rows / 2);
}

TEST(StatisticsSlices, NoPlanWhereTheOutlineCannotSettleTheCompare) {
  TempDir dir;
  DumpShape target;
  target.framework_last = true;  // read as pytorch until "data" ends
  EXPECT_FALSE(Plan(FileDumps(dir.root() / "framework", target, DumpShape{}), 2).has_value());
  target = DumpShape{};
  target.joined_grads = true;  // one key is another's followed by ".0": their rows could meet
  EXPECT_FALSE(Plan(FileDumps(dir.root() / "joined", target, DumpShape{}), 2).has_value());
  CompareOptions options = FileDumps(dir.root() / "twice", DumpShape{}, DumpShape{});
  std::string text = Dump(DumpShape{});
  text.insert(text.find("\"Functional.relu.0.forward\""), "\"Functional.linear.3.forward\": {},\n");
  Write(options.target_path, text);
  EXPECT_FALSE(Plan(options, 2).has_value());  // a key twice in the target
  // A golden key that a target key continues with "." and more, and a key that starts with ".".
  for (const auto& [side, key] : {std::pair{"golden", "Functional.linear.3"}, std::pair{"target", ".x.forward"}}) {
    options = FileDumps(dir.root() / (std::string("meet_") + side), DumpShape{}, DumpShape{});
    text = Dump(DumpShape{});
    text.insert(text.find("\"Functional.relu.0.forward\""), std::string("\"") + key + "\": {},\n");
    Write(std::string(side) == "golden" ? options.golden_path : options.target_path, text);
    EXPECT_FALSE(Plan(options, 2).has_value()) << key;
  }
  options = FileDumps(dir.root() / "md5_late", DumpShape{}, DumpShape{});
  text = Dump(DumpShape{});
  text.insert(text.find("\"Functional.relu.0.forward\""), "\"Functional.abs.0.forward\": {\"output\": [\"md5\"]},\n");
  Write(options.golden_path, text);
  EXPECT_FALSE(Plan(options, 2).has_value());  // md5 past the first entries, where no slice reads
  CompareOptions fuzzy = FileDumps(dir.root() / "fm", DumpShape{}, DumpShape{});
  fuzzy.fuzzy_match = true;
  EXPECT_FALSE(Plan(fuzzy, 2).has_value());  // -fm matches in a queue over all rows
}

}  // namespace
}  // namespace msprobe::compare::internal
