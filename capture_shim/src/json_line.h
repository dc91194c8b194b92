// Builds one line of JSON (manifest.jsonl) without a JSON library: the shim stands alone.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace msprobe::capture {

class JsonLine {
 public:
  JsonLine& Str(std::string_view key, std::string_view v) {
    Key(key);
    Quote(v);
    return *this;
  }
  JsonLine& Int(std::string_view key, int64_t v) {
    Key(key);
    out_ += std::to_string(v);
    return *this;
  }
  JsonLine& Num(std::string_view key, double v) {
    Key(key);
    if (!std::isfinite(v)) {
      out_ += "null";
    } else {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.17g", v);
      out_ += buf;
    }
    return *this;
  }
  JsonLine& Ints(std::string_view key, const std::vector<int64_t>& v) {
    Key(key);
    out_ += '[';
    for (size_t i = 0; i < v.size(); ++i) {
      if (i) out_ += ',';
      out_ += std::to_string(v[i]);
    }
    out_ += ']';
    return *this;
  }
  // `json` must already be valid JSON (an array or object built elsewhere).
  JsonLine& Raw(std::string_view key, std::string_view json) {
    Key(key);
    out_ += json;
    return *this;
  }
  std::string Object() const { return "{" + out_ + "}"; }

 private:
  void Key(std::string_view key) {
    if (!out_.empty()) out_ += ',';
    Quote(key);
    out_ += ':';
  }
  void Quote(std::string_view v) {
    out_ += '"';
    for (unsigned char c : v) {
      if (c == '"' || c == '\\') {
        out_ += '\\';
        out_ += static_cast<char>(c);
      } else if (c < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        out_ += buf;
      } else {
        out_ += static_cast<char>(c);
      }
    }
    out_ += '"';
  }
  std::string out_;
};

}  // namespace msprobe::capture
