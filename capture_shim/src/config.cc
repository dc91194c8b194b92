// MSPROBE_CAPTURE_* parsing.
#include "config.h"

#include <cstdlib>

namespace msprobe::capture {
namespace {

std::optional<uint64_t> ParseUint(const std::string& text) {
  if (text.empty() || text.size() > 19) return std::nullopt;
  uint64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  return v;
}

std::optional<std::string> Env(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr) return std::nullopt;
  return std::string(v);
}

}  // namespace

std::optional<IndexRanges> IndexRanges::Parse(const std::string& text) {
  IndexRanges out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    const std::string item = text.substr(start, comma - start);
    const size_t dash = item.find('-');
    if (dash == std::string::npos) {
      auto v = ParseUint(item);
      if (!v) return std::nullopt;
      out.ranges_.emplace_back(*v, *v);
    } else {
      auto lo = ParseUint(item.substr(0, dash));
      const std::string hi_text = item.substr(dash + 1);
      auto hi = hi_text.empty() ? std::optional<uint64_t>(UINT64_MAX) : ParseUint(hi_text);
      if (!lo || !hi || *hi < *lo) return std::nullopt;
      out.ranges_.emplace_back(*lo, *hi);
    }
    start = comma + 1;
  }
  return out;
}

bool IndexRanges::Contains(uint64_t v) const {
  for (const auto& [lo, hi] : ranges_) {
    if (v >= lo && v <= hi) return true;
  }
  return false;
}

std::optional<uint64_t> ParseSize(const std::string& text) {
  if (text.empty()) return std::nullopt;
  uint64_t scale = 1;
  std::string digits = text;
  switch (text.back()) {
    case 'K': case 'k': scale = 1ull << 10; break;
    case 'M': case 'm': scale = 1ull << 20; break;
    case 'G': case 'g': scale = 1ull << 30; break;
    case 'T': case 't': scale = 1ull << 40; break;
    default: break;
  }
  if (scale != 1) digits.pop_back();
  auto v = ParseUint(digits);
  if (!v || *v > UINT64_MAX / scale) return std::nullopt;
  return *v * scale;
}

std::optional<Config> ReadConfig(std::string* error) {
  Config c;
  c.enabled = Env("MSPROBE_CAPTURE_ENABLE").value_or("0") == "1";
  if (!c.enabled) return c;
  const auto bad = [&](const char* name, const std::string& value, const char* expected) {
    *error = std::string(name) + "='" + value + "': expected " + expected;
    return std::nullopt;
  };
  if (auto v = Env("MSPROBE_CAPTURE_DIR"); v && !v->empty()) c.dir = *v;
  if (auto v = Env("MSPROBE_CAPTURE_MODE")) {
    if (*v == "tensor") c.mode = CaptureMode::kTensor;
    else if (*v == "stats") c.mode = CaptureMode::kStats;
    else return bad("MSPROBE_CAPTURE_MODE", *v, "tensor or stats");
  }
  if (auto v = Env("MSPROBE_CAPTURE_IO")) {
    if (*v == "input") c.outputs = false;
    else if (*v == "output") c.inputs = false;
    else if (*v != "all") return bad("MSPROBE_CAPTURE_IO", *v, "input, output or all");
  }
  if (auto v = Env("MSPROBE_CAPTURE_OPS"); v && !v->empty()) {
    try {
      c.ops.emplace(*v, std::regex::ECMAScript | std::regex::optimize);
    } catch (const std::regex_error&) {
      return bad("MSPROBE_CAPTURE_OPS", *v, "an ECMAScript regular expression");
    }
  }
  for (auto [name, target] : {std::pair{"MSPROBE_CAPTURE_RANKS", &c.ranks},
                              std::pair{"MSPROBE_CAPTURE_EXEC_RANGE", &c.exec_range}}) {
    if (auto v = Env(name); v && !v->empty()) {
      auto r = IndexRanges::Parse(*v);
      if (!r) return bad(name, *v, "ranges like 0,2-3,10-");
      *target = *r;
    }
  }
  for (auto [name, target] : {std::pair{"MSPROBE_CAPTURE_MEMORY", &c.memory_budget},
                              std::pair{"MSPROBE_CAPTURE_MIN_FREE_DISK", &c.min_free_disk},
                              std::pair{"MSPROBE_CAPTURE_DIRECT_MIN", &c.direct_min}}) {
    if (auto v = Env(name)) {
      auto s = ParseSize(*v);
      if (!s) return bad(name, *v, "a size like 512M, 2G or a byte count");
      *target = *s;
    }
  }
  if (auto v = Env("MSPROBE_CAPTURE_ON_FULL")) {
    if (*v == "block") c.block_when_full = true;
    else if (*v != "drop") return bad("MSPROBE_CAPTURE_ON_FULL", *v, "drop or block");
  }
  if (auto v = Env("MSPROBE_CAPTURE_LARGE")) {
    if (*v == "drop") c.chunk_large = false;
    else if (*v != "chunk") return bad("MSPROBE_CAPTURE_LARGE", *v, "chunk or drop");
  }
  if (auto v = Env("MSPROBE_CAPTURE_DIRECT")) {
    if (*v == "off") c.direct = false;
    else if (*v != "auto") return bad("MSPROBE_CAPTURE_DIRECT", *v, "auto or off");
  }
  c.delegate = Env("MSPROBE_CAPTURE_DELEGATE").value_or("0") == "1";
  return c;
}

}  // namespace msprobe::capture
