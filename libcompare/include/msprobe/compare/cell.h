// One value of a compare result table, typed the way msprobe's pandas frames hold it: text, a
// float, an int or a bool. Writers render it (CSV: Python str(); xlsx: typed cells).
#pragma once

#include <cstdint>
#include <string>
#include <utility>

namespace msprobe::compare {

class Cell {
 public:
  enum class Kind : uint8_t { kText, kFloat, kInt, kBool };

  Cell() = default;  // the empty text
  static Cell Text(std::string s) { Cell c; c.text_ = std::move(s); return c; }
  static Cell Float(double v) { Cell c; c.kind_ = Kind::kFloat; c.number_ = v; return c; }
  static Cell Int(int64_t v) { Cell c; c.kind_ = Kind::kInt; c.int_ = v; return c; }
  static Cell Bool(bool v) { Cell c; c.kind_ = Kind::kBool; c.int_ = v; return c; }
  // msprobe's string constants (compare.md §9.16).
  static Cell NA() { return Text("N/A"); }
  static Cell Nan() { return Text("Nan"); }
  static Cell None() { return Text("None"); }
  static Cell Unsupported() { return Text("unsupported"); }

  Kind kind() const { return kind_; }
  bool is_text() const { return kind_ == Kind::kText; }
  bool is_number() const { return kind_ == Kind::kFloat || kind_ == Kind::kInt; }
  const std::string& text() const { return text_; }
  double number() const { return kind_ == Kind::kFloat ? number_ : static_cast<double>(int_); }
  int64_t integer() const { return int_; }
  bool boolean() const { return int_ != 0; }
  bool IsText(std::string_view s) const { return kind_ == Kind::kText && text_ == s; }

  // Python's str() of the value: repr for floats ("1e-05", "3.0", "inf", "nan"), "True"/"False".
  std::string ToPython() const;
  bool operator==(const Cell& o) const;

 private:
  Kind kind_ = Kind::kText;
  std::string text_;
  double number_ = 0;
  int64_t int_ = 0;
};

}  // namespace msprobe::compare
