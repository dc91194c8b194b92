// One value of a compare result table, typed the way msprobe's pandas frames hold it: text, a
// float, an int or a bool. Writers render it (CSV: Python str(); xlsx: typed cells).
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "msprobe/dump/text/python_json.h"

namespace msprobe {
class Decoder;  // msprobe/dump/util/coding.h: the record types below it Get… from one
}  // namespace msprobe

namespace msprobe::compare {

class Cell {
 public:
  enum class Kind : uint8_t { kText, kFloat, kInt, kBool };

  Cell() = default;  // the empty text
  static Cell Text(std::string s) { Cell c; c.text_ = std::move(s); return c; }
  static Cell Float(double v) { Cell c; c.kind_ = Kind::kFloat; c.value_.number = v; return c; }
  static Cell Int(int64_t v) { Cell c; c.kind_ = Kind::kInt; c.value_.integer = v; return c; }
  static Cell Bool(bool v) { Cell c; c.kind_ = Kind::kBool; c.value_.integer = v; return c; }
  // msprobe's string constants (docs/compare.md §9.16).
  static Cell NA() { return Text("N/A"); }
  static Cell Nan() { return Text("Nan"); }
  static Cell None() { return Text("None"); }
  static Cell Unsupported() { return Text("unsupported"); }

  Kind kind() const { return kind_; }
  bool is_text() const { return kind_ == Kind::kText; }
  bool is_number() const { return kind_ == Kind::kFloat || kind_ == Kind::kInt; }
  const std::string& text() const { return text_; }
  double number() const { return kind_ == Kind::kFloat ? value_.number : static_cast<double>(integer()); }
  int64_t integer() const { return kind_ == Kind::kFloat ? 0 : value_.integer; }
  bool boolean() const { return integer() != 0; }
  bool IsText(std::string_view s) const { return kind_ == Kind::kText && text_ == s; }

  // Python's str() of the value: repr for floats ("1e-05", "3.0", "inf", "nan"), "True"/"False".
  std::string ToPython() const;
  bool operator==(const Cell& o) const;

 private:
  // Rows hold a dozen cells each, millions of rows a compare: one word serves both kinds of number.
  union Value {
    int64_t integer = 0;  // kInt, kBool; 0 for text
    double number;        // kFloat
  };
  std::string text_;
  Value value_;
  Kind kind_ = Kind::kText;
};

// Writes a cell with its type as json.dump would: text as a string, numbers, bools.
void WritePyJson(const Cell& cell, PyJsonWriter* writer);

// A cell in a message between processes (coding.h): its kind, then its value, bit for bit.
void PutCell(std::string* dst, const Cell& cell);
[[nodiscard]] bool GetCell(Decoder* in, Cell* cell);

}  // namespace msprobe::compare
