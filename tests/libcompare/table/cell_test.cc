#include "msprobe/compare/table/cell.h"

#include <gtest/gtest.h>

namespace msprobe::compare {
namespace {

TEST(CellTest, CellsPrintAsPythonStr) {
  EXPECT_EQ(Cell::Float(2.0).ToPython(), "2.0");
  EXPECT_EQ(Cell::Int(3).ToPython(), "3");
  EXPECT_EQ(Cell::Bool(true).ToPython(), "True");
  EXPECT_EQ(Cell::NA().ToPython(), "N/A");
}

// Expected: Python's json.dumps([2.0, 3, True, "N/A", float("inf")], indent=1).
TEST(CellTest, CellsWriteAsJsonDumpsTypesThem) {
  PyJsonWriter w(1);
  w.BeginArray();
  for (const Cell& c : {Cell::Float(2.0), Cell::Int(3), Cell::Bool(true), Cell::NA(), Cell::Float(1e300 * 1e10)}) {
    WritePyJson(c, &w);
  }
  w.EndArray();
  EXPECT_EQ(w.text(), "[\n 2.0,\n 3,\n true,\n \"N/A\",\n Infinity\n]");
}

}  // namespace
}  // namespace msprobe::compare
