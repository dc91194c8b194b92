// msprobe's statistic columns (NPU max … Bench l2norm) are pandas columns built from lists: a column
// whose every cell is a number (no text, no bool) and that holds a float is float64, so its integers
// print as floats ("113.0"); any text keeps the integers as they are (docs/compare.md §4.1).
#pragma once

#include <array>
#include <string>

#include "msprobe/compare/table/result_table.h"

namespace msprobe {
class Decoder;  // msprobe/dump/util/coding.h
}  // namespace msprobe

namespace msprobe::compare {

// What the statistic columns of the rows seen so far hold; feed it every table of a pair.
class StatColumns {
 public:
  void Add(const ResultTable& table);
  // What another saw of rows elsewhere (a statistics slice's, docs/distributed.md §3.1).
  void Add(const StatColumns& more);
  // Whether a column's integers print as floats, once every row has been added.
  bool IntsBecomeFloats(int column) const;
  bool AnyIntsBecomeFloats() const;

 private:
  struct Column {
    bool other = false, has_int = false, has_float = false;  // other: a text or bool cell
  };
  std::array<Column, 8> columns_;  // target_stats 0-3, golden_stats 0-3

  friend void PutStatColumns(std::string* dst, const StatColumns& columns);
  friend bool GetStatColumns(Decoder* in, StatColumns* columns);
};

// In a message between processes (coding.h): each column's three flags.
void PutStatColumns(std::string* dst, const StatColumns& columns);
[[nodiscard]] bool GetStatColumns(Decoder* in, StatColumns* columns);

// The whole table of a pair: the integers of its float64 statistic columns made floats.
void ApplyStatColumnTypes(ResultTable* table);

}  // namespace msprobe::compare
