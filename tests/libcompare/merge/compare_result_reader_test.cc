#include "msprobe/compare/merge/compare_result_reader.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "test_support.h"

namespace msprobe::compare {
namespace {

using msprobe::testing::TempDir;
using msprobe::testing::WriteFile;

// Selects NPU Name, Max diff, NPU max and Flag; keeps the rows whose name starts with "keep".
CompareResultQuery Query() {
  CompareResultQuery q;
  q.select = [](const std::vector<std::string>& header) -> Result<std::vector<size_t>> {
    std::vector<size_t> columns;
    for (const char* name : {"NPU Name", "Max diff", "NPU max", "Flag"}) {
      columns.push_back(static_cast<size_t>(std::find(header.begin(), header.end(), name) - header.begin()));
    }
    return columns;
  };
  q.keep = [](std::string_view key) { return key.starts_with("keep"); };
  return q;
}

TEST(CompareResultReader, CsvCellsArePackedAndTypedPerColumn) {
  TempDir dir;
  const std::string path = dir.Path("compare_result_rank0_20260101000000.csv");
  // "Max diff" is a text column of our statistics csv; NPU max holds an int and a float, so pandas
  // makes both floats; Flag holds "True"/"False" texts, so it becomes bools.
  WriteFile(path,
            "NPU Name,Max diff,NPU max,Flag\n"
            "keep.a,0.5,3,True\n"
            "drop.b,N/A,\"[0, 1]\",False\n"
            "keep.c,N/A,2.5,False\n");
  auto result = ReadCompareResult(path, Query());
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(result->data_rows, 3u);
  ASSERT_EQ(result->row_count(), 2u);
  // NPU max: "[0, 1]" in the dropped row still makes the column keep each cell's kind.
  EXPECT_EQ(result->ToCell(0, 0), Cell::Text("keep.a"));
  EXPECT_EQ(result->ToCell(0, 1), Cell::Text("0.5"));
  EXPECT_EQ(result->ToCell(0, 2), Cell::Int(3));
  EXPECT_EQ(result->ToCell(0, 3), Cell::Bool(true));
  EXPECT_EQ(result->ToCell(1, 0), Cell::Text("keep.c"));
  EXPECT_EQ(result->ToCell(1, 1), Cell::Text("N/A"));
  EXPECT_EQ(result->ToCell(1, 2), Cell::Float(2.5));
  EXPECT_EQ(result->ToCell(1, 3), Cell::Bool(false));
  EXPECT_EQ(result->TextOf(result->at(1, 0)), "keep.c");
}

TEST(CompareResultReader, NumericColumnWithAFloatMakesEveryCellAFloat) {
  TempDir dir;
  const std::string path = dir.Path("r.csv");
  WriteFile(path, "NPU Name,Max diff,NPU max,Flag\nkeep.a,1,4,x\nkeep.b,2,0.25,\n");
  auto result = ReadCompareResult(path, Query());
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  ASSERT_EQ(result->row_count(), 2u);
  EXPECT_EQ(result->ToCell(0, 2), Cell::Float(4.0));
  EXPECT_EQ(result->ToCell(1, 2), Cell::Float(0.25));
  // No "Max diff" header means no statistics text columns: "1" and "2" are numbers, and all ints.
  EXPECT_EQ(result->ToCell(0, 1), Cell::Int(1));
  EXPECT_EQ(result->ToCell(1, 1), Cell::Int(2));
  // A column with an empty cell keeps its texts.
  EXPECT_EQ(result->ToCell(0, 3), Cell::Text("x"));
  EXPECT_EQ(result->ToCell(1, 3), Cell::Text(""));
}

}  // namespace
}  // namespace msprobe::compare
