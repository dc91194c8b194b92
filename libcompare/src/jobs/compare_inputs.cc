#include "jobs/compare_inputs_internal.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <regex>

#include "msprobe/dump/framework/dump_layout.h"

namespace msprobe::compare {
namespace {

namespace fs = std::filesystem;

bool IsDumpJsonName(const std::string& name) { return name == "dump.json" || name == "debug.json"; }

// The json a rank dir holds: dump.json, else debug.json.
std::optional<std::string> RankJson(const fs::path& dir, const std::string& prefer) {
  std::error_code ec;
  for (const std::string& name : {prefer, std::string("dump.json"), std::string("debug.json")}) {
    if (!name.empty() && fs::is_regular_file(dir / name, ec)) return (dir / name).string();
  }
  return std::nullopt;
}

// "_rank0": the output name suffix (docs/compare.md §1.4). Built with append: GCC 12 warns falsely
// (-Wrestrict, PR105329) on "_" + std::string.
std::string RankSuffix(const fs::path& rank_dir) { return std::string("_").append(rank_dir.filename().string()); }

std::vector<fs::path> Subdirs(const fs::path& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_directory(ec)) out.push_back(it->path());
  }
  return out;
}

// rank, rank0, rank12 (docs/formats.md §4.2); "rank" alone sorts first.
int RankNumber(const std::string& name) {
  static const std::regex kRank("^rank(0|[1-9][0-9]*)?$");
  std::smatch m;
  if (!std::regex_match(name, m, kRank)) return -2;
  return m[1].matched ? std::stoi(m[1].str()) : -1;
}

std::vector<fs::path> RankDirs(const fs::path& step) {
  std::vector<std::pair<int, fs::path>> ranks;
  for (const fs::path& d : Subdirs(step)) {
    const int n = RankNumber(d.filename().string());
    if (n >= -1) ranks.emplace_back(n, d);
  }
  std::sort(ranks.begin(), ranks.end());
  std::vector<fs::path> out;
  for (auto& r : ranks) out.push_back(r.second);
  return out;
}

Result<fs::path> OnlyProcDir(const fs::path& step) {
  static const std::regex kProc("^proc[0-9]+$");
  std::vector<fs::path> procs;
  for (const fs::path& d : Subdirs(step)) {
    if (std::regex_match(d.filename().string(), kProc)) procs.push_back(d);
  }
  if (procs.size() != 1) {
    return Status::InvalidInput(step.string(), "no or multiple proc directories were found; expected exactly one "
                                               "(or rank* directories)");
  }
  return procs[0];
}

Result<std::vector<ComparePairSpec>> StepPairs(const fs::path& target, const fs::path& golden, const std::string& out) {
  std::vector<fs::path> t = RankDirs(target), g = RankDirs(golden);
  if (t.empty() && g.empty()) {
    MSP_ASSIGN_OR_RETURN(fs::path tp, OnlyProcDir(target));
    MSP_ASSIGN_OR_RETURN(fs::path gp, OnlyProcDir(golden));
    t = {tp};
    g = {gp};
  }
  if (t.size() != g.size()) {
    return Status::InvalidInput(target.string(), fmt::format("{} rank directories here but {} in {}; they pair by "
                                                             "position and must be as many", t.size(), g.size(), golden.string()));
  }
  // The first target rank decides dump.json or debug.json for all (docs/compare.md §7.3).
  const std::optional<std::string> first = RankJson(t[0], "");
  const std::string kind = first ? fs::path(*first).filename().string() : "dump.json";
  std::vector<ComparePairSpec> pairs;
  for (size_t i = 0; i < t.size(); ++i) {
    const auto tj = RankJson(t[i], kind), gj = RankJson(g[i], kind);
    if (!tj || !gj || fs::path(*tj).filename() != kind || fs::path(*gj).filename() != kind) continue;  // msprobe skips it
    pairs.push_back({*tj, *gj, out, RankSuffix(t[i])});
  }
  if (pairs.empty()) return Status::NotFound(target.string(), "no rank has a " + kind + " on both sides");
  return pairs;
}

bool HasMixDirs(const fs::path& dir) {
  std::error_code ec;
  return fs::is_directory(dir / "graph", ec) || fs::is_directory(dir / "pynative", ec);
}

}  // namespace

Result<std::vector<ComparePairSpec>> ResolveComparePairs(const std::string& target, const std::string& golden,
                                                         const std::string& output_dir) {
  std::error_code ec;
  for (const std::string& p : {target, golden}) {
    if (!fs::exists(p, ec)) return Status::NotFound(p, "no such file or directory");
  }
  const bool t_dir = fs::is_directory(target, ec), g_dir = fs::is_directory(golden, ec);
  if (t_dir != g_dir) {
    return Status::InvalidInput(target, fmt::format("is a {} but {} is a {}; give two json files or two directories",
                                                    t_dir ? "directory" : "file", golden, g_dir ? "directory" : "file"));
  }
  if (!t_dir) {
    const std::string tn = fs::path(target).filename().string(), gn = fs::path(golden).filename().string();
    if (!IsDumpJsonName(tn)) return Status::InvalidInput(target, "expected a file named dump.json or debug.json");
    if (tn != gn) return Status::InvalidInput(golden, "is a " + gn + " but the target is a " + tn);
    return std::vector<ComparePairSpec>{{target, golden, output_dir, ""}};
  }
  // Two rank dirs given directly (beyond msprobe): compare them as one rank.
  if (const auto tj = RankJson(target, ""); tj) {
    const auto gj = RankJson(golden, fs::path(*tj).filename().string());
    if (!gj) return Status::NotFound(golden, "holds no " + fs::path(*tj).filename().string());
    return std::vector<ComparePairSpec>{{*tj, *gj, output_dir, RankSuffix(target)}};
  }
  if (HasMixDirs(target) && HasMixDirs(golden)) {
    std::vector<ComparePairSpec> pairs;
    for (const char* part : {"graph", "pynative"}) {
      const fs::path tp = fs::path(target) / part, gp = fs::path(golden) / part;
      if (!fs::is_directory(tp, ec) || !fs::is_directory(gp, ec)) continue;
      std::vector<fs::path> steps = Subdirs(tp);
      std::sort(steps.begin(), steps.end(), [](const fs::path& a, const fs::path& b) {
        return NaturalLess(a.filename().string(), b.filename().string());
      });
      for (const fs::path& step : steps) {
        if (!fs::is_directory(gp / step.filename(), ec)) continue;
        const std::string out = (fs::path(output_dir) / part / step.filename()).string();
        MSP_ASSIGN_OR_RETURN(auto step_pairs, StepPairs(step, gp / step.filename(), out));
        pairs.insert(pairs.end(), step_pairs.begin(), step_pairs.end());
      }
    }
    if (pairs.empty()) return Status::NotFound(target, "no step directory common to both graph/pynative trees");
    return pairs;
  }
  return StepPairs(target, golden, output_dir);
}

}  // namespace msprobe::compare
