// --data-parallel's text (docs/consistency.md §3.2): the words, groups and ranges, and the messages
// of what it refuses.
#include <gtest/gtest.h>

#include "msprobe/compare/consistency/consistency_job.h"

namespace msprobe::compare {
namespace {

TEST(DataParallelSpec, Words) {
  EXPECT_EQ(ParseDataParallel("auto")->kind, DataParallelSpec::Kind::kAuto);
  EXPECT_EQ(ParseDataParallel("none")->kind, DataParallelSpec::Kind::kNone);
  EXPECT_EQ(ParseDataParallel("all")->kind, DataParallelSpec::Kind::kAll);
}

TEST(DataParallelSpec, GroupsOfRangesAndLists) {
  const Result<DataParallelSpec> spec = ParseDataParallel("0-3/7,5,4");
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  EXPECT_EQ(spec->kind, DataParallelSpec::Kind::kGroups);
  EXPECT_EQ(spec->groups, (std::vector<std::vector<int64_t>>{{0, 1, 2, 3}, {4, 5, 7}}));
}

TEST(DataParallelSpec, Refused) {
  EXPECT_EQ(ParseDataParallel("0-3/3-7").status().ToString(),
            "--data-parallel: '0-3/3-7': rank 3 is in two groups; give auto, none, all or groups such as 0-3/4-7 or "
            "0,2,4,6/1,3,5,7");
  for (const char* bad : {"", "0-3/", "x", "3-1", "1,,2", "-1"}) {
    const Result<DataParallelSpec> spec = ParseDataParallel(bad);
    ASSERT_FALSE(spec.ok()) << bad;
    EXPECT_NE(spec.status().ToString().find("is not a rank or a range a-b"), std::string::npos) << bad;
  }
}

}  // namespace
}  // namespace msprobe::compare
