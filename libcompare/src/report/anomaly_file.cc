#include "report/anomaly_file_internal.h"

#include <charconv>
#include <filesystem>

#include "msprobe/dump/text/json_file.h"

namespace msprobe::compare::internal {
namespace {

namespace fs = std::filesystem;

// The ns of "anomaly_analyze_{ns}.json", nullopt for another name.
std::optional<uint64_t> TimestampOf(std::string_view name) {
  constexpr std::string_view kPrefix = "anomaly_analyze_", kSuffix = ".json";
  if (!name.starts_with(kPrefix) || !name.ends_with(kSuffix) || name.size() <= kPrefix.size() + kSuffix.size()) {
    return std::nullopt;
  }
  const std::string_view digits = name.substr(kPrefix.size(), name.size() - kPrefix.size() - kSuffix.size());
  uint64_t ns = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), ns);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return ns;
}

}  // namespace

std::optional<AnomalyFile> FindAnomalyFile(const std::string& dir) {
  std::error_code ec;
  std::optional<std::pair<uint64_t, fs::path>> newest;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    const std::optional<uint64_t> ns = TimestampOf(e.path().filename().string());
    if (ns && e.is_regular_file(ec) && (!newest || *ns > newest->first)) newest.emplace(*ns, e.path());
  }
  if (!newest) return std::nullopt;
  const Result<JsonDocument> doc = ReadJsonFile(newest->second.string());
  if (!doc.ok() || !doc->IsObject()) return std::nullopt;
  AnomalyFile file{newest->second.filename().string(), {}};
  for (const auto& m : doc->GetObject()) {
    const std::string_view key(m.name.GetString(), m.name.GetStringLength());
    int rank = 0;
    const auto [end, rank_ec] = std::from_chars(key.data() + std::min<size_t>(5, key.size()), key.data() + key.size(), rank);
    if (!key.starts_with("rank_") || rank_ec != std::errc() || end != key.data() + key.size() || !m.value.IsArray()) {
      return std::nullopt;
    }
    for (const JsonValue& node : m.value.GetArray()) {
      const char* op = node.IsObject() ? StringMember(node, "op_name") : nullptr;
      if (op == nullptr) return std::nullopt;
      file.anomalies.push_back({rank, op});
    }
  }
  return file;
}

}  // namespace msprobe::compare::internal
