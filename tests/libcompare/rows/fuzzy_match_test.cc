// -fm: rename() and the queue (docs/compare.md §3.5). Expected names are what msprobe's rename_api gives.
#include "msprobe/compare/rows/fuzzy_match.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace msprobe::compare {
namespace {

RowPair Pair(size_t target, size_t golden) { return {target, golden}; }
RowPair Unmatched(size_t target) { return {target, std::nullopt}; }

TEST(FuzzyMatchTest, RenameDropsTheCallNumberOfApis) {
  EXPECT_EQ(FuzzyRename("Functional.relu.3.forward.input.0"), "Functional.relu.forward.input.0");
  EXPECT_EQ(FuzzyRename("Functional.relu.0.backward.input.0"), "Functional.relu.backward.input.0");
}

TEST(FuzzyMatchTest, RenameDropsTheClassNameOfModules) {
  EXPECT_EQ(FuzzyRename("Module.fc.Linear.forward.0.input.0"), "Module.fc.forward.0.input.0");
}

TEST(FuzzyMatchTest, RenameKeepsNamesWithoutADirection) {
  EXPECT_EQ(FuzzyRename("Tensor.add.0.input.0"), "Tensor.add.0.input.0");
  EXPECT_EQ(FuzzyRename("x.0.debug"), "x.0.debug");
}

TEST(FuzzyMatchTest, RenameIsLiteralForOtherOccurrencesOfTheWord) {
  // The first "forward" wins, even inside a module name, and the text after the word's second
  // occurrence is lost, as msprobe's name.split(word)[1] does.
  EXPECT_EQ(FuzzyRename("Module.forward_net.Linear.forward.0.input.0"), "Module.forward_net.Linear.");
  // "forward" is looked for before "backward", wherever they are.
  EXPECT_EQ(FuzzyRename("Module.net.Linear.backward.0.forward_hook.0"), "Module.net.Linear.backward.forward_hook.0");
}

TEST(FuzzyMatchTest, MatchesInOrderIgnoringCallNumbers) {
  const std::vector<std::string_view> target = {"Functional.relu.3.forward.input.0",
                                                "Functional.relu.3.forward.output.0"};
  const std::vector<std::string_view> golden = {"Functional.relu.0.forward.input.0",
                                                "Functional.relu.0.forward.output.0"};
  EXPECT_EQ(FuzzyMatchKeys(target, golden), (std::vector<RowPair>{Pair(0, 0), Pair(1, 1)}));
}

TEST(FuzzyMatchTest, TargetItemsBeforeTheMatchPointAreUnmatchedAndSkippedGoldenItemsDropped) {
  // i=0: [a] vs [x]; i=1: [a, b] vs [x, c]; i=2: newest target c meets golden c at 1: a, b unmatched,
  // golden x dropped, y left in the golden queue.
  const std::vector<std::string_view> target = {"T.a.0.forward.input.0", "T.b.0.forward.input.0",
                                                "T.c.0.forward.input.0"};
  const std::vector<std::string_view> golden = {"T.x.0.forward.input.0", "T.c.0.forward.input.0",
                                                "T.y.0.forward.input.0"};
  EXPECT_EQ(FuzzyMatchKeys(target, golden), (std::vector<RowPair>{Unmatched(0), Unmatched(1), Pair(2, 1)}));
}

TEST(FuzzyMatchTest, OlderTargetItemMeetsTheNewestGoldenItem) {
  // i=1: newest target b meets nothing; older target a meets the newest golden item a (step 3).
  const std::vector<std::string_view> target = {"T.a.0.forward.input.0", "T.b.0.forward.input.0"};
  const std::vector<std::string_view> golden = {"T.x.0.forward.input.0", "T.a.0.forward.input.0"};
  EXPECT_EQ(FuzzyMatchKeys(target, golden), (std::vector<RowPair>{Pair(0, 1), Unmatched(1)}));
}

TEST(FuzzyMatchTest, BreakWhenTheGoldenQueueEmptiesDropsLaterTargetRows) {
  // i=2 enqueues target b while the golden queue is empty: the loop breaks, b is emitted unmatched
  // and c, never enqueued, is lost.
  const std::vector<std::string_view> target = {"T.a.0.forward.input.0", "T.a.0.forward.output.0",
                                        "T.b.0.forward.input.0", "T.c.0.forward.input.0"};
  const std::vector<std::string_view> golden = {"T.a.1.forward.input.0", "T.a.1.forward.output.0"};
  EXPECT_EQ(FuzzyMatchKeys(target, golden), (std::vector<RowPair>{Pair(0, 0), Pair(1, 1), Unmatched(2)}));
}

TEST(FuzzyMatchTest, NoBreakWhileTheGoldenQueueHoldsItems) {
  const std::vector<std::string_view> target = {"T.a.0.forward.input.0", "T.b.0.forward.input.0",
                                                "T.c.0.forward.input.0"};
  const std::vector<std::string_view> golden = {"T.x.0.forward.input.0"};
  EXPECT_EQ(FuzzyMatchKeys(target, golden), (std::vector<RowPair>{Unmatched(0), Unmatched(1), Unmatched(2)}));
}

TEST(FuzzyMatchTest, EmptySides) {
  EXPECT_TRUE(FuzzyMatchKeys({}, {"T.a.0.forward.input.0"}).empty());
  EXPECT_EQ(FuzzyMatchKeys({"T.a.0.forward.input.0", "T.b.0.forward.input.0"}, {}),
            (std::vector<RowPair>{Unmatched(0)}));
}

}  // namespace
}  // namespace msprobe::compare
