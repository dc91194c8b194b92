#include "merge/merge_inputs_internal.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <map>

#include "msprobe/compare/metrics/thresholds.h"

namespace msprobe::compare {
namespace {

namespace fs = std::filesystem;

bool AllDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// "_{14 digits}{ext}" at the end of `rest`; true when that is all of it.
bool IsTimestampTail(std::string_view rest, std::string_view ext) {
  return rest.size() == 1 + 14 + ext.size() && rest[0] == '_' && AllDigits(rest.substr(1, 14)) &&
         rest.substr(15) == ext;
}

std::optional<uint64_t> RankOf(std::string_view name, std::string_view ext, bool allow_pair) {
  constexpr std::string_view kPrefix = "compare_result_rank";
  if (!name.starts_with(kPrefix)) return std::nullopt;
  std::string_view rest = name.substr(kPrefix.size());
  size_t digits = 0;
  while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9') ++digits;
  if (digits == 0) return std::nullopt;
  const std::string_view number = rest.substr(0, digits);
  rest.remove_prefix(digits);
  // "-rank\1": the same digits again, compared as text as the regex back-reference does.
  if (allow_pair && rest.starts_with("-rank") && rest.substr(5).starts_with(number)) {
    const std::string_view after = rest.substr(5 + number.size());
    if (IsTimestampTail(after, ext)) rest = after;
  }
  if (!IsTimestampTail(rest, ext)) return std::nullopt;
  uint64_t rank = 0;
  const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), rank);
  if (ec != std::errc()) return std::nullopt;
  return rank;
}

bool IsSingleRankName(std::string_view name) {
  for (std::string_view prefix : {"compare_result_rank-rank", "compare_result_rank"}) {
    if (name.starts_with(prefix) && IsTimestampTail(name.substr(prefix.size()), ".xlsx")) return true;
  }
  return false;
}

// Why a found result cannot be read, or empty when it can.
std::string Unusable(const fs::directory_entry& entry) {
  std::error_code ec;
  if (!entry.is_regular_file(ec)) return "not a regular file; skipped";
  const uint64_t size = entry.file_size(ec);
  if (ec) return "cannot read its size (" + ec.message() + "); skipped";
  if (size >= kMaxCompareResultBytes) {
    return fmt::format("{} bytes, not below the 1 GiB limit for a compare result; skipped", size);
  }
  if (access(entry.path().c_str(), R_OK) != 0) return "not readable; skipped";
  return {};
}

}  // namespace

std::optional<uint64_t> MergeResultRank(std::string_view file_name) {
  if (file_name.ends_with(".xlsx")) return RankOf(file_name, ".xlsx", true);
  if (file_name.ends_with(".csv")) return RankOf(file_name, ".csv", false);
  return std::nullopt;
}

Result<std::vector<MergeInput>> DiscoverMergeInputs(const std::string& input_dir, const Warn& warn) {
  std::error_code ec;
  if (!fs::exists(input_dir, ec)) return Status::NotFound(input_dir, "no such directory");
  if (!fs::is_directory(input_dir, ec)) return Status::InvalidInput(input_dir, "not a directory");
  if (access(input_dir.c_str(), R_OK | X_OK) != 0) return Status::IOError(input_dir, "directory is not readable");
  fs::directory_iterator it(input_dir, ec);
  if (ec) return Status::IOError(input_dir, "cannot list the directory: " + ec.message());

  std::vector<fs::directory_entry> entries;
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    if (ec) return Status::IOError(input_dir, "cannot list the directory: " + ec.message());
    entries.push_back(*it);
  }
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.path() < b.path(); });

  std::vector<MergeInput> inputs;
  std::map<std::string, std::string> by_stem;  // stem → chosen path (.xlsx wins over .csv)
  std::map<std::string, uint64_t> rank_of_stem;
  for (const fs::directory_entry& entry : entries) {
    const std::string name = entry.path().filename().string();
    const bool xlsx = name.ends_with(".xlsx");
    if (!xlsx && !name.ends_with(".csv")) continue;
    const std::optional<uint64_t> rank = MergeResultRank(name);
    if (!rank) {
      if (!xlsx) continue;  // msprobe reads no CSV; ours are named as above
      if (IsSingleRankName(name)) {
        warn(entry.path().string(), "Single rank compare result do not need to be merged.");
        continue;
      }
      return Status::InvalidInput(entry.path().string(), fmt::format("Wrong compare result name: {}, please check!", name));
    }
    if (const std::string why = Unusable(entry); !why.empty()) {
      warn(entry.path().string(), why);
      continue;
    }
    const std::string stem = entry.path().stem().string();
    auto [slot, fresh] = by_stem.try_emplace(stem, entry.path().string());
    if (!fresh && xlsx) slot->second = entry.path().string();
    rank_of_stem[stem] = *rank;
  }

  std::map<uint64_t, std::string> by_rank;
  for (const auto& [stem, path] : by_stem) {
    auto [slot, fresh] = by_rank.try_emplace(rank_of_stem[stem], path);
    if (!fresh) {
      return Status::InvalidInput(input_dir, fmt::format("rank{} has two compare results, {} and {}; keep one of them",
                                                         rank_of_stem[stem], fs::path(slot->second).filename().string(),
                                                         fs::path(path).filename().string()));
    }
  }
  for (auto& [rank, path] : by_rank) inputs.push_back({rank, std::move(path)});
  if (inputs.size() < 2) {
    return Status::InvalidInput(input_dir, "Number of compare result is no more than 1, no need to merge.");
  }
  return inputs;
}

}  // namespace msprobe::compare
