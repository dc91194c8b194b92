// JSON laid out exactly as Python's json.dump(obj, f, indent=N) writes it (ensure_ascii, ", "/": "
// separators, NaN/Infinity, repr() floats): msprobe's -da files are compared byte for byte. Also the
// inverse of str(list_of_str), to turn the NPU_Stack_Info text back into the list msprobe dumps.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/compare/cell.h"

namespace msprobe::compare {

class PyJsonWriter {
 public:
  explicit PyJsonWriter(int indent) : indent_(indent) {}

  void BeginObject() { Open('{'); }
  void EndObject() { Close('}'); }
  void BeginArray() { Open('['); }
  void EndArray() { Close(']'); }
  void Key(std::string_view key);
  void String(std::string_view s);
  void Int(int64_t v);
  void Float(double v);  // repr(); NaN, Infinity, -Infinity as json.dump writes them
  void Bool(bool v);
  void Null();
  // A result cell with its type: text as a string, numbers, bools.
  void Value(const Cell& cell);
  void StringList(const std::vector<std::string>& items);

  std::string& out() { return out_; }  // writers flush it to the file from time to time

 private:
  void Open(char bracket);
  void Close(char bracket);
  void BeforeValue();
  void Newline(size_t depth);

  int indent_;
  std::string out_;
  std::vector<size_t> counts_;  // children written so far, per open container
  bool after_key_ = false;
};

// Appends s as a JSON string with json.dumps's ensure_ascii escaping.
void AppendJsonString(std::string* out, std::string_view s);

// Parses Python's str() of a list of strings (['a', "b'c"], with \n, \\, \x, \u escapes) back into
// the list; nullopt when the text is not such a list.
std::optional<std::vector<std::string>> ParsePythonStrList(std::string_view text);

}  // namespace msprobe::compare
