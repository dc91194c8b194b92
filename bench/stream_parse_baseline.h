// The baseline of the dump.json benchmarks (data2db_bench, consistency_bench, compare_stats_bench):
// every entry of each file stream-parsed (StreamDumpJson) and dropped, on one thread, timed in the
// same run as the job.
#pragma once

#include <fmt/format.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <vector>

#include "msprobe/dump/framework/dump_json.h"

namespace msprobe::bench {

inline double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The MB of JSON of `files`, parsed; prints the baseline's line and returns its seconds (< 0 on an
// error, printed).
inline double StreamParseBaseline(const std::vector<std::filesystem::path>& files, double* json_mb) {
  class Discard : public DumpJsonVisitor {
   public:
    Status Entry(std::string_view, const JsonValue& value) override {
      entries += value.IsObject() ? 1 : 0;
      return Status::Ok();
    }
    uint64_t entries = 0;
  } discard;
  *json_mb = 0;
  for (const std::filesystem::path& f : files) *json_mb += static_cast<double>(std::filesystem::file_size(f)) / 1e6;
  const auto start = std::chrono::steady_clock::now();
  for (const std::filesystem::path& f : files) {
    const auto header = StreamDumpJson(f.string(), discard, EntryParsing::kAhead);
    if (!header.ok()) {
      fmt::print(stderr, "stream: {}\n", header.status().ToString());
      return -1;
    }
  }
  const double seconds = SecondsSince(start);
  fmt::print("stream-parse only: {} files, {:.0f} MB of JSON, {} entries: {:.2f} s, {:.0f} MB/s\n", files.size(), *json_mb,
             discard.entries, seconds, *json_mb / seconds);
  return seconds;
}

}  // namespace msprobe::bench
