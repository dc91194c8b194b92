#include "jobs/compare_inputs_internal.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <limits>
#include <optional>
#include <regex>
#include <tuple>

#include "msprobe/dump/framework/dump_layout.h"
#include "msprobe/dump/kernel/folder_survey.h"

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

// rank, rank0, rank12 (docs/formats.md §4.2): the number, -1 for "rank" alone (it sorts first),
// nullopt for a name of another form. A number past INT_MAX is refused, naming the directory.
Result<std::optional<int>> RankNumber(const fs::path& dir) {
  static const std::regex kRank("^rank(0|[1-9][0-9]*)?$");
  const std::string name = dir.filename().string();
  std::smatch m;
  if (!std::regex_match(name, m, kRank)) return std::optional<int>();
  if (!m[1].matched) return std::optional<int>(-1);
  int n = 0;
  const std::string digits = m[1].str();
  if (std::from_chars(digits.data(), digits.data() + digits.size(), n).ec != std::errc()) {
    return Status::InvalidInput(dir.string(), fmt::format("rank number {} is out of range (at most {})", digits,
                                                          std::numeric_limits<int>::max()));
  }
  return std::optional<int>(n);
}

struct RankDir {
  int number;  // as RankNumber
  fs::path dir;
};

Result<std::vector<RankDir>> RankDirs(const fs::path& step) {
  std::vector<RankDir> ranks;
  for (const fs::path& d : Subdirs(step)) {
    MSP_ASSIGN_OR_RETURN(std::optional<int> n, RankNumber(d));
    if (n) ranks.push_back({*n, d});
  }
  std::sort(ranks.begin(), ranks.end(),
            [](const RankDir& a, const RankDir& b) { return std::tie(a.number, a.dir) < std::tie(b.number, b.dir); });
  return ranks;
}

// A step to compare in `other`'s place: its own step of that name, itself when it is a step folder,
// else "…/step".
std::string OtherStep(const fs::path& other, const std::string& step) {
  std::error_code ec;
  if (fs::is_directory(other / step, ec)) return (other / step).string();
  const FolderSurvey::Kind kind = SurveyFolder(other.string()).kind;
  return kind == FolderSurvey::Kind::kStep ? other.string() : "…/" + step;
}

// Why `dir` (the `side` of the compare, the other being `other`) is no step folder: what it holds and
// what to give instead.
Status NotAStep(const fs::path& dir, const fs::path& other, bool target) {
  using Kind = FolderSurvey::Kind;
  const FolderSurvey s = SurveyFolder(dir.string());
  const auto invalid = [&](std::string what) { return Status::InvalidInput(dir.string(), std::move(what)); };
  switch (s.kind) {
    case Kind::kDumpRoot: {
      const std::string mine = (dir / s.steps[0]).string(), theirs = OtherStep(other, s.steps[0]);
      return invalid(fmt::format("a dump root with {} step{} ({}); compare one step: -tp {} -gp {}", s.steps.size(),
                                 s.steps.size() == 1 ? "" : "s", ListNames(s.steps), target ? mine : theirs,
                                 target ? theirs : mine));
    }
    case Kind::kKernelNpy:
      return invalid(fmt::format("an npy kernel dump tree (rank{} {}); compare it with --rank {} [--step N]",
                                 s.ranks.size() == 1 ? "" : "s", fmt::join(s.ranks, ", "), s.ranks[0]));
    case Kind::kKernelBin:
      return invalid(fmt::format("a tree of {} kernel .bin dump(s); convert both sides with msprobe-convert, then "
                                 "compare the npy trees with --rank 0", s.bin_dumps));
    case Kind::kDumpTree:
      return invalid(fmt::format("no dump directly here, {} deeper down; {}", DescribeFolder(s), kExpectedDump));
    case Kind::kStep:
      if (s.procs.size() > 1) {
        return invalid(fmt::format("{} proc directories ({}); a step is compared with exactly one: give the one to "
                                   "compare, {}", s.procs.size(), ListNames(s.procs), (dir / s.procs[0]).string()));
      }
      break;
    case Kind::kRank:
      return invalid(fmt::format("a rank folder (dump.json), but {} is not; give both sides at the same level: two "
                                 "step folders, two rank folders or two dump.json files", other.string()));
    default: break;  // as a reader of any program finds it
  }
  return invalid(NoDumpReason(s));
}

// The one proc directory of a step whose side has no rank directories (msprobe's rule), as rank 0.
Result<fs::path> OnlyProcDir(const fs::path& step, const fs::path& other, bool target) {
  static const std::regex kProc("^proc[0-9]+$");
  std::vector<fs::path> procs;
  for (const fs::path& d : Subdirs(step)) {
    if (std::regex_match(d.filename().string(), kProc)) procs.push_back(d);
  }
  if (procs.size() != 1) return NotAStep(step, other, target);
  return procs[0];
}

// The side of a pair whose json is missing or of the other kind, as a skipped input.
std::string MissingJson(const fs::path& dir, const fs::path& other, const std::string& kind) {
  return fmt::format("{}: no {} ({} has one); its rank is not compared", dir.string(), kind, other.string());
}

Result<ComparePairs> StepPairs(const fs::path& target, const fs::path& golden, const std::string& out) {
  MSP_ASSIGN_OR_RETURN(std::vector<RankDir> t, RankDirs(target));
  MSP_ASSIGN_OR_RETURN(std::vector<RankDir> g, RankDirs(golden));
  if (t.empty() && g.empty()) {
    MSP_ASSIGN_OR_RETURN(fs::path tp, OnlyProcDir(target, golden, true));
    MSP_ASSIGN_OR_RETURN(fs::path gp, OnlyProcDir(golden, target, false));
    t = {{0, tp}};
    g = {{0, gp}};
  }
  if (t.size() != g.size()) {
    // A side without rank directories is likely no step folder at all: say what it is.
    if (t.empty() && SurveyFolder(target.string()).kind != FolderSurvey::Kind::kStep) return NotAStep(target, golden, true);
    if (g.empty() && SurveyFolder(golden.string()).kind != FolderSurvey::Kind::kStep) return NotAStep(golden, target, false);
    return Status::InvalidInput(target.string(), fmt::format("{} rank directories here but {} in {}; they pair by "
                                                             "position and must be as many", t.size(), g.size(), golden.string()));
  }
  // The first target rank decides dump.json or debug.json for all (docs/compare.md §7.3).
  const std::optional<std::string> first = RankJson(t[0].dir, "");
  const std::string kind = first ? fs::path(*first).filename().string() : "dump.json";
  ComparePairs pairs;
  for (size_t i = 0; i < t.size(); ++i) {
    const auto tj = RankJson(t[i].dir, kind), gj = RankJson(g[i].dir, kind);
    const bool t_ok = tj && fs::path(*tj).filename() == kind, g_ok = gj && fs::path(*gj).filename() == kind;
    if (t_ok && g_ok) {
      pairs.specs.push_back({*tj, *gj, out, RankSuffix(t[i].dir), std::max(t[i].number, 0)});
    } else if (t_ok || g_ok) {  // msprobe skips it
      pairs.skipped.push_back(t_ok ? MissingJson(g[i].dir, t[i].dir, kind) : MissingJson(t[i].dir, g[i].dir, kind));
    } else {
      pairs.skipped.push_back(fmt::format("{} and {}: no {} on either side; the rank is not compared", t[i].dir.string(),
                                          g[i].dir.string(), kind));
    }
  }
  if (pairs.specs.empty()) return Status::NotFound(target.string(), "no rank has a " + kind + " on both sides");
  return pairs;
}

// The step directories of a mix dump's part, in natural order (step2 before step10).
std::vector<fs::path> StepDirs(const fs::path& part) {
  std::vector<fs::path> steps = Subdirs(part);
  std::sort(steps.begin(), steps.end(), [](const fs::path& a, const fs::path& b) {
    return NaturalLess(a.filename().string(), b.filename().string());
  });
  return steps;
}

bool HasMixDirs(const fs::path& dir) {
  std::error_code ec;
  return fs::is_directory(dir / "graph", ec) || fs::is_directory(dir / "pynative", ec);
}

}  // namespace

Result<ComparePairs> ResolveComparePairs(const std::string& target, const std::string& golden,
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
    return ComparePairs{{{target, golden, output_dir, ""}}, {}};
  }
  // Two rank dirs given directly (beyond msprobe): compare them as one rank.
  if (const auto tj = RankJson(target, ""); tj) {
    const auto gj = RankJson(golden, fs::path(*tj).filename().string());
    if (!gj) return Status::NotFound(golden, "holds no " + fs::path(*tj).filename().string());
    MSP_ASSIGN_OR_RETURN(std::optional<int> rank, RankNumber(fs::path(target)));
    return ComparePairs{{{*tj, *gj, output_dir, RankSuffix(target), std::max(rank.value_or(0), 0)}}, {}};
  }
  if (HasMixDirs(target) && HasMixDirs(golden)) {
    ComparePairs pairs;
    for (const char* part : {"graph", "pynative"}) {
      const fs::path tp = fs::path(target) / part, gp = fs::path(golden) / part;
      const bool t_part = fs::is_directory(tp, ec), g_part = fs::is_directory(gp, ec);
      if (t_part != g_part) {
        pairs.skipped.push_back(fmt::format("{}: no {} part in {}; not compared", (t_part ? tp : gp).string(), part,
                                            t_part ? golden : target));
      }
      if (!t_part || !g_part) continue;
      for (const auto& [from, other] : {std::pair{tp, gp}, std::pair{gp, tp}}) {  // steps of one side only
        for (const fs::path& step : StepDirs(from)) {
          if (!fs::is_directory(other / step.filename(), ec)) {
            pairs.skipped.push_back(fmt::format("{}: no such step in {}; not compared", step.string(), other.string()));
          }
        }
      }
      for (const fs::path& step : StepDirs(tp)) {
        if (!fs::is_directory(gp / step.filename(), ec)) continue;
        const std::string out = (fs::path(output_dir) / part / step.filename()).string();
        MSP_ASSIGN_OR_RETURN(ComparePairs step_pairs, StepPairs(step, gp / step.filename(), out));
        pairs.specs.insert(pairs.specs.end(), step_pairs.specs.begin(), step_pairs.specs.end());
        pairs.skipped.insert(pairs.skipped.end(), step_pairs.skipped.begin(), step_pairs.skipped.end());
      }
    }
    if (pairs.specs.empty()) return Status::NotFound(target, "no step directory common to both graph/pynative trees");
    return pairs;
  }
  return StepPairs(target, golden, output_dir);
}

}  // namespace msprobe::compare
