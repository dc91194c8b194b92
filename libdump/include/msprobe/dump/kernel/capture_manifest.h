// The manifest.jsonl files the capture shim writes (capture_shim/README.md "Output"; the writer is the
// shim's, which stays standalone), read and summarised here: {DIR}/rank_{r}/{YYYYMMDDHHMMSS}/
// manifest.jsonl, one JSON object per captured or dropped call, its "status" "written" (with "bytes"),
// "stats" or "dropped" (with "reason"), and "op_type".
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "msprobe/dump/util/status.h"

namespace msprobe {

struct CaptureSummary {
  uint64_t ops = 0;        // calls captured (every status but "dropped")
  uint64_t files = 0;      // "written": tensor files
  uint64_t bytes = 0;      // their bytes
  uint64_t stats_ops = 0;  // "stats": statistic.csv rows
  uint64_t dropped = 0;
  std::map<std::string, uint64_t> by_type;       // captured calls per op type
  std::map<std::string, uint64_t> drop_reasons;  // dropped calls per reason
};

// Summarises manifest lines. A line that is not a JSON object with a string "status" is skipped (the
// shim may have been killed while writing it); so are members of unexpected types.
CaptureSummary SummarizeCaptureManifest(std::string_view text);

// The lines of the manifest at `path` after its first `skip` bytes (what an earlier run in the same
// second wrote), summarised. IOError when it cannot be read.
Result<CaptureSummary> ReadCaptureManifest(const std::string& path, uint64_t skip = 0);

// Every manifest.jsonl under dir/rank_*/<timestamp>/, with its size now (empty when dir is missing).
std::map<std::string, uint64_t> FindCaptureManifests(const std::string& dir);

}  // namespace msprobe
