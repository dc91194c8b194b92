// JSON laid out exactly as Python's json.dump(obj, f, indent=N) writes it (ensure_ascii, ", "/": "
// separators, NaN/Infinity, repr() floats): msprobe's -da files are compared byte for byte. Also
// json.dumps of a list of str, as the Err_message column holds it.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/dump/text/json_file.h"


namespace msprobe {

class PyJsonWriter {
 public:
  // A member name escaped once, for keys written over and over (a result row's column names).
  struct EncodedKey {
    std::string text;  // "name": 
  };
  static EncodedKey EncodeKey(std::string_view key);

  explicit PyJsonWriter(int indent) : indent_(indent) {}

  void BeginObject() { Open('{'); }
  void EndObject() { Close('}'); }
  void BeginArray() { Open('['); }
  void EndArray() { Close(']'); }
  void Key(std::string_view key);
  void Key(const EncodedKey& key);
  void String(std::string_view s);
  void Int(int64_t v);
  void Float(double v);  // repr(); NaN, Infinity, -Infinity as json.dump writes them
  void Bool(bool v);
  void Null();
  void StringList(const std::vector<std::string>& items);
  // What json.dump writes for what json.load made of `v`: key order kept, a repeated key at its
  // first place with its last value, numbers re-printed (floats by repr(), NaN/Infinity tokens).
  void Value(const JsonValue& v);

  void Reserve(size_t bytes);  // room for this much text up front
  std::string_view text() const { return {buf_.get(), len_}; }
  std::string Finish() && { return std::string(text()); }

 private:
  void Open(char bracket);
  void Close(char bracket);
  void BeforeValue();
  void Newline(size_t depth);
  void PutString(std::string_view s);
  // Room for `n` more bytes after the text; the caller then advances len_ by what it wrote. The
  // -da json runs to gigabytes, and std::string's checked appends were most of its cost.
  char* Room(size_t n) {
    if (capacity_ - len_ < n) Grow(n);
    return buf_.get() + len_;
  }
  void Grow(size_t n);
  // Inline: most pieces are short literals (", ", ": ", "true"), copied without a call.
  void Put(std::string_view s) {
    std::memcpy(Room(s.size()), s.data(), s.size());
    len_ += s.size();
  }

  int indent_;
  // The text is [0, len_), spare bytes follow, not initialized: the -da json's blocks are megabytes.
  std::unique_ptr<char[]> buf_;
  size_t capacity_ = 0, len_ = 0;
  std::vector<size_t> counts_;  // children written so far, per open container
  bool after_key_ = false;
};

// json.dumps(items) of a list of str (ensure_ascii, no indent): ["a", "\u00e9"].
std::string JsonDumpsStrings(const std::vector<std::string>& items);

}  // namespace msprobe
