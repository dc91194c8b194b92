// pandas' typing of the statistic columns (docs/compare.md §4.1): integers become floats only in a
// column of numbers that holds a float.
#include "msprobe/compare/table/stat_columns.h"

#include <gtest/gtest.h>

namespace msprobe::compare {
namespace {

ResultRow Row(Cell target_max, Cell golden_max) {
  ResultRow r;
  r.target_stats = {target_max, Cell::Int(0), Cell::None(), Cell::None()};
  r.golden_stats = {golden_max, Cell::Int(0), Cell::None(), Cell::None()};
  return r;
}

TEST(StatColumnsTest, IntegersOfAFloatColumnBecomeFloats) {
  ResultTable table;
  table.rows = {Row(Cell::Int(113), Cell::Int(113)), Row(Cell::Float(0.5), Cell::NA())};
  ApplyStatColumnTypes(&table);
  EXPECT_EQ(table.rows[0].target_stats[0].ToPython(), "113.0");
  EXPECT_EQ(table.rows[0].golden_stats[0].ToPython(), "113");  // "N/A" makes the column text
  EXPECT_EQ(table.rows[0].target_stats[1].ToPython(), "0");       // integers only: int64
}

TEST(StatColumnsTest, TextOrBoolKeepsIntegers) {
  StatColumns columns;
  ResultTable table;
  table.rows = {Row(Cell::Int(1), Cell::Float(1)), Row(Cell::Float(2), Cell::Bool(true))};
  columns.Add(table);
  EXPECT_TRUE(columns.IntsBecomeFloats(0));
  EXPECT_FALSE(columns.IntsBecomeFloats(4));
  table.rows = {Row(Cell::None(), Cell::Float(1))};
  columns.Add(table);  // a later table's text: the whole column is text
  EXPECT_FALSE(columns.AnyIntsBecomeFloats());
  table.mode = CompareMode::kMd5;
  table.rows = {Row(Cell::Int(1), Cell::Float(1))};
  StatColumns md5;
  md5.Add(table);
  EXPECT_FALSE(md5.AnyIntsBecomeFloats());
}

}  // namespace
}  // namespace msprobe::compare
