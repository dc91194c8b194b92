// File and directory names.
#include "file_names.h"

#include <ctime>

namespace msprobe::capture {

std::string SanitizeName(std::string_view name) {
  std::string out(name);
  for (char& c : out) {
    if (c == '.' || c == '/' || c == '\\' || c == ' ') c = '_';
  }
  return out;
}

std::string OpName(std::string_view op_type, uint64_t seq) {
  return std::string(op_type) + "_" + std::to_string(seq);
}

std::string BinFileName(std::string_view op_type, std::string_view op_name, uint64_t task_id, uint32_t stream_id,
                        uint64_t time_us) {
  return SanitizeName(op_type) + "." + SanitizeName(op_name) + "." + std::to_string(task_id) + "." +
         std::to_string(stream_id) + "." + std::to_string(time_us);
}

std::string HashedFileName(std::string_view name) {
  // Two FNV-1a 64 passes with different offsets: a deterministic 128-bit name.
  uint64_t h1 = 14695981039346656037ull, h2 = 1099511628211ull * 31;
  for (unsigned char c : name) {
    h1 = (h1 ^ c) * 1099511628211ull;
    h2 = (h2 ^ c) * 1099511628211ull;
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (uint64_t h : {h1, h2}) {
    for (int i = 60; i >= 0; i -= 4) out.push_back(kHex[(h >> i) & 0xf]);
  }
  return out;
}

std::string TimestampDir() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  localtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%d%H%M%S", &tm);
  return buf;
}

}  // namespace msprobe::capture
