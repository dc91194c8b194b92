// The shim's configuration, read once from MSPROBE_CAPTURE_* environment variables (README.md lists
// them). A malformed value leaves capture off: the host program always runs on.
#pragma once

#include <cstdint>
#include <regex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace msprobe::capture {

// Inclusive ranges of non-negative integers, "3", "0-9", "100-" (open end), comma separated.
class IndexRanges {
 public:
  static std::optional<IndexRanges> Parse(const std::string& text);
  bool Contains(uint64_t v) const;
  bool empty() const { return ranges_.empty(); }

 private:
  std::vector<std::pair<uint64_t, uint64_t>> ranges_;
};

enum class CaptureMode { kTensor, kStats };

struct Config {
  bool enabled = false;
  std::string dir = "msprobe_capture";
  CaptureMode mode = CaptureMode::kTensor;
  bool inputs = true;
  bool outputs = true;
  std::optional<std::regex> ops;       // searched in the op type
  IndexRanges ranks;                   // empty: every rank
  IndexRanges exec_range;              // op call indices (per process, from 0); empty: all
  uint64_t memory_budget = 1ull << 30; // bytes of host copies in flight
  bool block_when_full = false;        // else drop
  bool chunk_large = true;             // a call larger than the whole budget: write it in pieces, else drop
  uint64_t min_free_disk = 2ull << 30;
  bool delegate = false;               // T1: let the runtime dump, write what its callback delivers
  bool direct = true;                  // write the aligned middle of large tensors with O_DIRECT (auto)
  uint64_t direct_min = 8ull << 20;    // slots (or chunked pieces) at least this large go direct
};

// Reads the environment. nullopt with `*error` set when a variable is malformed.
std::optional<Config> ReadConfig(std::string* error);

// "1G", "512M", "64K", "4096" → bytes.
std::optional<uint64_t> ParseSize(const std::string& text);

}  // namespace msprobe::capture
