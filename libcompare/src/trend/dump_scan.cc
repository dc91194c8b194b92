#include "trend/dump_scan_internal.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <optional>

#include "trend/trend_value_internal.h"

namespace msprobe::compare::internal {
namespace {

namespace fs = std::filesystem;

// The names in `dir`, sorted (the order of a directory listing is the file system's).
Result<std::vector<std::string>> ListNames(const fs::path& dir) {
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec) return Status::NotFound(dir.string(), "cannot read the directory: " + ec.message());
  std::vector<std::string> names;
  for (; it != fs::directory_iterator(); it.increment(ec)) names.push_back(it->path().filename().string());
  if (ec) return Status::IOError(dir.string(), "cannot read the directory: " + ec.message());
  std::sort(names.begin(), names.end());
  return names;
}

bool IsDir(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

// The number after a 4-letter prefix ("step", "rank", "proc") of a directory, or nullopt.
std::optional<int64_t> NumberAfterPrefix(const fs::path& dir, const std::string& name) {
  if (!IsDir(dir)) return std::nullopt;
  return PythonInt(std::string_view(name).substr(4));
}

}  // namespace

Result<std::vector<TrendRankDir>> ScanStepDir(const fs::path& step_dir, const Warn& warn,
                                              std::vector<std::string>* without_dump_json) {
  MSP_ASSIGN_OR_RETURN(std::vector<std::string> names, ListNames(step_dir));
  std::vector<TrendRankDir> ranks, procs;
  std::vector<std::string> skipped;
  bool any = false;
  for (const std::string& name : names) {
    const bool rank = name.starts_with("rank");
    if (!rank && !name.starts_with("proc")) continue;
    const fs::path dir = step_dir / name;
    const std::optional<int64_t> number = NumberAfterPrefix(dir, name);
    if (!number) {
      skipped.push_back(name);
      continue;
    }
    any = true;
    std::error_code ec;
    if (!fs::is_regular_file(dir / "dump.json", ec)) {
      if (warn) warn(dir.string(), "no dump.json; passed over");
      without_dump_json->push_back(dir.string());
      continue;
    }
    (rank ? ranks : procs).push_back(TrendRankDir{*number, dir.string()});
  }
  if (!any && warn) {
    std::string found;
    for (const std::string& name : skipped) found += (found.empty() ? "" : ", ") + name;
    warn(step_dir.string(), fmt::format("no rank<N> or proc<N> directory; passed over{}",
                                        found.empty() ? "" : " (skipped: " + found + ")"));
  }
  const auto by_number = [](const TrendRankDir& a, const TrendRankDir& b) { return a.rank < b.rank; };
  std::stable_sort(ranks.begin(), ranks.end(), by_number);
  std::stable_sort(procs.begin(), procs.end(), by_number);
  // A proc directory is numbered after the step's highest rank, in the order of its own number.
  int64_t next = ranks.empty() ? 0 : ranks.back().rank + 1;
  for (TrendRankDir& proc : procs) {
    proc.rank = next++;
    ranks.push_back(std::move(proc));
  }
  return ranks;
}

Result<DumpRootScan> ScanDumpRoot(const std::string& root, const Warn& warn) {
  if (!IsDir(root)) return Status::NotFound(root, "no such directory");
  MSP_ASSIGN_OR_RETURN(std::vector<std::string> names, ListNames(root));
  DumpRootScan scan;
  for (const std::string& name : names) {
    if (!name.starts_with("step")) continue;
    const fs::path dir = fs::path(root) / name;
    const std::optional<int64_t> number = NumberAfterPrefix(dir, name);
    if (!number) continue;
    scan.any_step_dir = true;
    for (const TrendStepDir& other : scan.steps) {
      if (other.step == *number) {
        return Status::InvalidInput(root, fmt::format("{} and {} are both step {}", fs::path(other.dir).filename().string(),
                                                      name, *number));
      }
    }
    MSP_ASSIGN_OR_RETURN(std::vector<TrendRankDir> ranks, ScanStepDir(dir, warn, &scan.ranks_without_dump_json));
    if (!ranks.empty()) scan.steps.push_back(TrendStepDir{*number, dir.string(), std::move(ranks)});
  }
  std::sort(scan.steps.begin(), scan.steps.end(),
            [](const TrendStepDir& a, const TrendStepDir& b) { return a.step < b.step; });
  return scan;
}

}  // namespace msprobe::compare::internal
