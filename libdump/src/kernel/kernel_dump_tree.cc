#include "msprobe/dump/kernel/kernel_dump_tree.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <map>

#include "msprobe/dump/framework/dump_layout.h"
#include "msprobe/dump/io/mapped_file.h"
#include "msprobe/dump/formats/npy_reader.h"
#include "msprobe/dump/kernel/mapping_csv.h"

namespace msprobe {
namespace fs = std::filesystem;
namespace {

constexpr int kMaxDepth = 32;

std::optional<int64_t> AllDigits(std::string_view s) {
  int64_t v = 0;
  if (s.empty() || s.size() > 18) return std::nullopt;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

// `prefix` followed by digits ("rank_3", "step_0"; "step2" when `optional_underscore`).
std::optional<int64_t> Prefixed(std::string_view part, std::string_view prefix, bool optional_underscore) {
  if (!part.starts_with(prefix)) return std::nullopt;
  part.remove_prefix(prefix.size());
  if (part.starts_with('_')) part.remove_prefix(1);
  else if (!optional_underscore) return std::nullopt;
  return AllDigits(part);
}

}  // namespace

RankStep RankStepOfPath(const std::string& dir_path) {
  std::vector<std::string> parts;
  for (const fs::path& p : fs::path(dir_path).lexically_normal()) {
    if (!p.empty() && p != "/") parts.push_back(p.string());
  }
  if (!parts.empty() && parts.back().empty()) parts.pop_back();
  RankStep out;
  std::optional<size_t> time_dir;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (std::optional<int64_t> r = Prefixed(parts[i], "rank", false)) out.rank = r;
    if (std::optional<int64_t> s = Prefixed(parts[i], "step", true)) out.step = s;
    if (parts[i].size() == 14 && AllDigits(parts[i])) time_dir = i;
  }
  if (!out.step && !parts.empty()) out.step = AllDigits(parts.back());
  if (!out.rank && time_dir && *time_dir + 1 < parts.size()) out.rank = AllDigits(parts[*time_dir + 1]);
  if (!out.rank && parts.size() > 4) out.rank = AllDigits(parts[parts.size() - 4]);
  if (!out.rank && parts.size() > 3) out.rank = AllDigits(parts[parts.size() - 3]);
  return out;
}

Result<std::vector<KernelDumpDir>> FindKernelDumpDirs(const std::string& root) {
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    if (fs::exists(root, ec)) return Status::InvalidInput(root, "not a directory");
    return Status::NotFound(root, "no such directory");
  }
  std::map<std::string, std::vector<fs::path>> files_by_dir;  // dir → its regular files
  files_by_dir[fs::path(root).lexically_normal().string()];
  fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
  if (ec) return Status::IOError(root, "cannot list directory: " + ec.message());
  for (; it != end; it.increment(ec)) {
    if (ec) return Status::IOError(root, "cannot list directory: " + ec.message());
    if (it.depth() >= kMaxDepth) it.disable_recursion_pending();
    const fs::directory_entry& entry = *it;
    if (entry.is_regular_file(ec)) files_by_dir[entry.path().parent_path().lexically_normal().string()].push_back(entry.path());
  }
  std::vector<KernelDumpDir> dirs;
  for (auto& [dir, files] : files_by_dir) {
    KernelDumpDir out;
    out.path = dir;
    KernelDumpMapping mapping;
    for (const fs::path& file : files) {
      if (file.filename() != "mapping.csv") continue;
      MSP_ASSIGN_OR_RETURN(mapping, ReadMappingCsv(file.string()));
    }
    for (const fs::path& file : files) {
      const std::string base = file.filename().string();
      if (base == "statistic.csv") {
        out.statistic_csv = file.string();
        continue;
      }
      const auto mapped = mapping.find(base);
      Result<KernelDumpName> name = ParseKernelDumpName(mapped == mapping.end() ? base : mapped->second);
      if (name.ok()) out.tensors.push_back({file.string(), std::move(*name)});
    }
    if (out.tensors.empty() && out.statistic_csv.empty()) continue;
    std::sort(out.tensors.begin(), out.tensors.end(), [](const KernelDumpFile& a, const KernelDumpFile& b) {
      if (a.name.timestamp != b.name.timestamp) return a.name.timestamp < b.name.timestamp;
      return NaturalLess(a.path, b.path);
    });
    const RankStep rs = RankStepOfPath(fs::absolute(dir).lexically_normal().string());
    out.rank = rs.rank;
    out.step = rs.step;
    dirs.push_back(std::move(out));
  }
  std::sort(dirs.begin(), dirs.end(), [](const KernelDumpDir& a, const KernelDumpDir& b) { return NaturalLess(a.path, b.path); });
  return dirs;
}

Result<TensorInfo> ReadKernelDumpTensor(const KernelDumpFile& file) {
  if (file.name.npy) return ReadNpyFile(file.path);
  // Raw bytes: ParseKernelDumpName guarantees a dtype for names without ".npy".
  const DType dtype = *file.name.dtype;
  MSP_ASSIGN_OR_RETURN(std::shared_ptr<MappedFile> mapped, MappedFile::Open(file.path));
  const uint64_t bits = Info(dtype).bits;
  const uint64_t size = mapped->size();
  if ((size * 8) % bits != 0 || size > UINT64_MAX / 8) {
    return Status::InvalidInput(file.path, "raw " + file.name.dtype_label + " file has " + std::to_string(size) +
                                               " bytes, not a whole number of " + std::to_string(bits) + "-bit elements");
  }
  TensorInfo info;
  info.dtype = dtype;
  info.path = file.path;
  info.storage_elements = size * 8 / bits;
  info.shape = {static_cast<int64_t>(info.storage_elements)};
  MSP_RETURN_IF_ERROR(ValidateExtent(info, file.path));
  return info;
}

}  // namespace msprobe
