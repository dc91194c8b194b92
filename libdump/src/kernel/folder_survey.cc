#include "msprobe/dump/kernel/folder_survey.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>

#include "msprobe/dump/framework/dump_layout.h"
#include "msprobe/dump/kernel/kernel_dump_name.h"
#include "msprobe/dump/kernel/kernel_dump_tree.h"

namespace msprobe {
namespace {

namespace fs = std::filesystem;

bool IsDumpJsonName(const std::string& name) { return name == "dump.json" || name == "debug.json"; }

std::string TypeName(fs::file_type type) {
  switch (type) {
    case fs::file_type::directory: return "a directory";
    case fs::file_type::fifo: return "a fifo";
    case fs::file_type::socket: return "a socket";
    case fs::file_type::block:
    case fs::file_type::character: return "a device";
    case fs::file_type::not_found: return "a broken symlink";
    default: return "not a regular file";
  }
}

// The folder's own entries: names, json files, step, rank and proc folders.
void SurveyTop(const fs::path& dir, FolderSurvey* s, bool* step_folders) {
  static const std::regex kStepName("^step[0-9]+$"), kProcName("^proc[0-9]+$");
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    s->names.push_back(name);
    std::error_code type_ec;
    const fs::file_status status = it->status(type_ec);  // follows a symlink, as readers do
    if (IsDumpJsonName(name) && !fs::is_regular_file(status) && s->json_type.empty()) s->json_type = TypeName(status.type());
    if (!fs::is_directory(status)) continue;
    if (std::regex_match(name, kStepName)) s->steps.push_back(name);
    if (std::regex_match(name, kProcName)) s->procs.push_back(name);
    *step_folders = *step_folders || IsRankDirName(name);
  }
  const auto natural = [](const std::string& a, const std::string& b) { return NaturalLess(a, b); };
  std::sort(s->names.begin(), s->names.end(), natural);
  std::sort(s->steps.begin(), s->steps.end(), natural);
  std::sort(s->procs.begin(), s->procs.end(), natural);
}

// The counts over the whole tree.
void SurveyTree(const fs::path& dir, FolderSurvey* s) {
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    const std::string name = it->path().filename().string();
    const std::string ext = it->path().extension().string();
    ++s->files;
    s->dump_jsons += IsDumpJsonName(name);
    s->pt_files += ext == ".pt";
    s->npy_files += ext == ".npy";
    s->bin_dumps += IsKernelBinDumpName(name);
    s->mapping_csv = s->mapping_csv || name == "mapping.csv";
    s->statistic_csv = s->statistic_csv || name == "statistic.csv";
  }
}

bool HoldsRankFiles(const std::vector<std::string>& names) {
  for (const char* part : {"construct.json", "stack.json", "dump_tensor_data"}) {
    if (std::find(names.begin(), names.end(), part) != names.end()) return true;
  }
  return false;
}

std::vector<int64_t> KernelRanks(const fs::path& dir) {
  std::set<int64_t> ranks;
  Result<std::vector<KernelDumpDir>> dirs = FindKernelDumpDirs(dir.string());
  if (!dirs.ok()) return {};
  for (const KernelDumpDir& d : *dirs) {
    if (d.tensors.empty() && d.statistic_csv.empty()) continue;
    ranks.insert(d.rank.value_or(0));
  }
  return {ranks.begin(), ranks.end()};
}

FolderSurvey::Kind Classify(const fs::path& dir, bool step_folders, FolderSurvey* s) {
  using Kind = FolderSurvey::Kind;
  if (s->names.empty()) return Kind::kEmpty;
  if (!s->json_type.empty()) return Kind::kJsonNotAFile;
  for (const std::string& name : s->names) {
    if (IsDumpJsonName(name)) return Kind::kRank;
  }
  if (step_folders) return Kind::kStep;
  if (!s->steps.empty()) return Kind::kDumpRoot;
  if (HoldsRankFiles(s->names)) return Kind::kRankWithoutJson;
  if (s->dump_jsons > 0) return Kind::kDumpTree;
  if (s->npy_files > 0 || s->statistic_csv) {
    s->ranks = KernelRanks(dir);
    if (!s->ranks.empty()) return Kind::kKernelNpy;
  }
  if (s->bin_dumps > 0) return Kind::kKernelBin;
  return Kind::kOther;
}

std::string Count(uint64_t n, std::string_view what) { return fmt::format("{} {}", n, what); }

}  // namespace

FolderSurvey SurveyFolder(const std::string& dir) {
  FolderSurvey s;
  bool step_folders = false;
  SurveyTop(dir, &s, &step_folders);
  SurveyTree(dir, &s);
  s.kind = Classify(dir, step_folders, &s);
  return s;
}

std::string DescribeFolder(const FolderSurvey& s) {
  if (s.files == 0) return s.names.empty() ? "nothing" : fmt::format("only folders ({})", ListNames(s.names));
  std::vector<std::string> parts;
  if (s.dump_jsons > 0) {
    parts.push_back(s.dump_jsons == 1 ? "dump.json" : Count(s.dump_jsons, "dump.json files"));
    if (s.pt_files > 0) parts.push_back(Count(s.pt_files, ".pt files"));
    if (s.npy_files > 0) parts.push_back(Count(s.npy_files, ".npy files"));
    return fmt::format("an msprobe dump ({})", fmt::join(parts, ", "));
  }
  if (s.npy_files > 0 || s.statistic_csv) {
    if (s.mapping_csv) parts.push_back("mapping.csv");
    if (s.statistic_csv) parts.push_back("statistic.csv");
    if (s.npy_files > 0) parts.push_back(Count(s.npy_files, ".npy files"));
    return fmt::format("an npy kernel dump ({})", fmt::join(parts, ", "));
  }
  if (s.bin_dumps > 0) return Count(s.bin_dumps, "kernel .bin dumps");
  return fmt::format("{} ({})", Count(s.files, s.files == 1 ? "file" : "files"), ListNames(s.names));
}

std::string NoDumpReason(const FolderSurvey& s) {
  using Kind = FolderSurvey::Kind;
  switch (s.kind) {
    case Kind::kEmpty: return std::string("empty folder; ") + kExpectedDump;
    case Kind::kRankWithoutJson:
      return fmt::format("rank folder without dump.json (it holds: {}); was the dump interrupted?", ListNames(s.names));
    case Kind::kKernelNpy:
      return fmt::format("an npy kernel dump tree (rank{} {}), not an msprobe dump; {}", s.ranks.size() == 1 ? "" : "s",
                         fmt::join(s.ranks, ", "), kExpectedDump);
    case Kind::kKernelBin:
      return fmt::format("a tree of {} kernel .bin dump(s), not an msprobe dump; {}", s.bin_dumps, kExpectedDump);
    case Kind::kJsonNotAFile: return fmt::format("its dump.json is {}, not a regular file", s.json_type);
    default: break;
  }
  return fmt::format("holds no dump ({}); {}", DescribeFolder(s), kExpectedDump);
}

Status ExplainNoDumpJson(Status status) {
  std::error_code ec;
  if (status.code() != Code::kNotFound || !fs::is_directory(status.source(), ec)) return status;
  return Status::InvalidInput(status.source(), NoDumpReason(SurveyFolder(status.source())));
}

}  // namespace msprobe
