// A step's ranks read by several processes (consistency/step_reading, docs/distributed.md §9; the
// processes are threads, libcompare/cluster/thread_world.h) reach process 0's checks as one process
// hands them on: every rank, in rank order, each value unchanged; a malformed dump stops every process
// with the error one process meets, after the ranks before it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "consistency/rank_share_messages_internal.h"
#include "consistency/step_reading_internal.h"
#include "libcompare/cluster/thread_world.h"
#include "test_support.h"

namespace msprobe::compare::internal {
namespace {

namespace fs = std::filesystem;
const std::string kStat4 = std::string(MSPROBE_TEST_DATA) + "/consistency/stat4";

struct Reading {
  std::vector<std::string> ranks;  // each rank's values as the codec writes them, in the order handed on
  Status status;
};

std::string Encoded(const RankValues& values) { return EncodeRankShare({.ranks = {values}, .failure = Status::Ok()}); }

Reading ReadAlone(const ConsistencyStep& step) {
  Reading r;
  r.status = ReadStepInOrder(step, {}, [&](RankValues&& v) { r.ranks.push_back(Encoded(v)); });
  return r;
}

// What each of `n` processes handed on and returned.
std::vector<Reading> ReadSpread(const ConsistencyStep& step, int n) {
  testing::ThreadWorld world(n);
  std::vector<Reading> readings(n);
  std::vector<std::thread> threads;
  for (int p = 0; p < n; ++p) {
    threads.emplace_back([&, p] {
      testing::ThreadWorld::Process cluster(&world, p);
      Reading& r = readings[p];
      r.status = ReadStepSpread(cluster, step, {}, [&](RankValues&& v) { r.ranks.push_back(Encoded(v)); });
    });
  }
  for (std::thread& t : threads) t.join();
  return readings;
}

ConsistencyStep Step(const std::string& input) {
  std::vector<std::string> without_dump_json;
  Result<std::vector<ConsistencyStep>> steps = FindConsistencySteps(input, {}, &without_dump_json);
  EXPECT_TRUE(steps.ok()) << steps.status().ToString();
  EXPECT_TRUE(without_dump_json.empty());
  return steps.ok() ? steps->back() : ConsistencyStep();
}

TEST(StepReading, EveryRankReachesProcessZeroInRankOrderOverOneToFiveProcesses) {
  const ConsistencyStep step = Step(kStat4);
  ASSERT_EQ(step.ranks.size(), 4u);
  const Reading alone = ReadAlone(step);
  ASSERT_TRUE(alone.status.ok()) << alone.status.ToString();
  ASSERT_EQ(alone.ranks.size(), 4u);
  for (int n = 1; n <= 5; ++n) {
    SCOPED_TRACE(n);
    const std::vector<Reading> readings = ReadSpread(step, n);
    EXPECT_EQ(readings[0].ranks, alone.ranks);
    for (int p = 0; p < n; ++p) EXPECT_TRUE(readings[p].status.ok()) << p << ": " << readings[p].status.ToString();
    for (int p = 1; p < n; ++p) EXPECT_TRUE(readings[p].ranks.empty()) << p;
  }
}

TEST(StepReading, AMalformedDumpStopsEveryProcessWithOneProcesssError) {
  msprobe::testing::TempDir dir;
  fs::copy(kStat4 + "/step1", dir.Path("step1"), fs::copy_options::recursive);
  std::ofstream(dir.Path("step1/rank2/dump.json"), std::ios::trunc) << R"({"task": "statistics", "data": {)";
  const ConsistencyStep step = Step(dir.Path("step1"));
  const Reading alone = ReadAlone(step);
  ASSERT_FALSE(alone.status.ok());
  EXPECT_NE(alone.status.source().find("rank2"), std::string::npos) << alone.status.ToString();
  ASSERT_EQ(alone.ranks.size(), 2u);  // ranks 0 and 1, read before it
  for (int n = 2; n <= 4; ++n) {
    SCOPED_TRACE(n);
    const std::vector<Reading> readings = ReadSpread(step, n);
    EXPECT_EQ(readings[0].ranks, alone.ranks);
    for (int p = 0; p < n; ++p) EXPECT_EQ(readings[p].status.ToString(), alone.status.ToString()) << p;
  }
}

}  // namespace
}  // namespace msprobe::compare::internal
