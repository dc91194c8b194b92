#include "msprobe/dump/framework/dump_layout.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <regex>

#include <sys/stat.h>

namespace msprobe {
namespace fs = std::filesystem;

bool NaturalLess(std::string_view a, std::string_view b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) && std::isdigit(static_cast<unsigned char>(b[j]))) {
      size_t ie = i, je = j;
      while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie]))) ++ie;
      while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je]))) ++je;
      // Compare digit runs by length once leading zeros are dropped, then lexically.
      std::string_view x = a.substr(i, ie - i), y = b.substr(j, je - j);
      while (x.size() > 1 && x[0] == '0') x.remove_prefix(1);
      while (y.size() > 1 && y[0] == '0') y.remove_prefix(1);
      if (x.size() != y.size()) return x.size() < y.size();
      if (x != y) return x < y;
      i = ie;
      j = je;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

bool IsRankDirName(std::string_view name) {
  static const std::regex kRankDir("^(rank(0|[1-9][0-9]*)?|proc[0-9]+)$");
  return std::regex_match(name.begin(), name.end(), kRankDir);
}

namespace {

// Adds the json files below `dir` to `out`; `jsonless_rank` gets the first rank folder that has none.
void Collect(const fs::path& dir, int depth, std::vector<std::string>* out, std::string* jsonless_rank) {
  std::error_code ec;
  bool found = false;
  for (const char* name : {"dump.json", "debug.json"}) {
    if (fs::is_regular_file(dir / name, ec)) {
      out->push_back((dir / name).string());
      found = true;
    }
  }
  if (found || depth == 0) return;
  std::vector<fs::path> children;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    // Skip symlinked directories: they are how loops arise, and msprobe never writes them.
    if (it->is_directory(ec) && !it->is_symlink(ec)) children.push_back(it->path());
  }
  std::sort(children.begin(), children.end(), [](const fs::path& x, const fs::path& y) {
    return NaturalLess(x.filename().string(), y.filename().string());
  });
  for (const fs::path& child : children) {
    const size_t before = out->size();
    Collect(child, depth - 1, out, jsonless_rank);
    if (out->size() == before && jsonless_rank->empty() && IsRankDirName(child.filename().string())) {
      *jsonless_rank = child.string();
    }
  }
}

}  // namespace

Result<std::vector<std::string>> FindDumpJsonFiles(const std::string& path) {
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) return Status::NotFound(path, "no such file or directory");
  if (fs::is_regular_file(st)) return std::vector<std::string>{path};
  if (!fs::is_directory(st)) return Status::InvalidInput(path, "not a file or directory");
  std::vector<std::string> files;
  std::string jsonless_rank;
  Collect(path, /*depth=*/2, &files, &jsonless_rank);
  if (files.empty()) return Status::NotFound(path, "no dump.json or debug.json found (looked two levels down)");
  // Its siblings' dumps would be checked and it silently not: an interrupted rank is the same input
  // error as when it is given alone.
  if (!jsonless_rank.empty()) return Status::NotFound(jsonless_rank, "rank folder holds no dump.json or debug.json");
  return files;
}

std::string TensorDataDir(const std::string& dump_json_path) {
  return (fs::path(dump_json_path).parent_path() / "dump_tensor_data").string();
}

Result<std::string> ResolveDataName(const std::string& tensor_dir, std::string_view data_name) {
  const auto refuse = [&](std::string_view why) {
    std::string shown;  // a NUL would end the line a terminal or a log shows
    for (const char c : data_name) c == '\0' ? shown += "\\0" : shown += c;
    return Status::InvalidInput(shown, fmt::format("refused data_name: {}", why));
  };
  if (data_name.empty()) return refuse("empty");
  if (data_name.find('\0') != std::string_view::npos) return refuse("contains a NUL byte");
  if (data_name.front() == '/') return refuse("absolute path");
  if (data_name.find('/') != std::string_view::npos || data_name.find('\\') != std::string_view::npos) {
    return refuse("contains a path separator; it must be a file name inside dump_tensor_data");
  }
  if (data_name == "." || data_name == "..") return refuse("not a file name");
  const std::string candidate = (fs::path(tensor_dir) / std::string(data_name)).string();
  // dump_tensor_data itself may be a symlink only to a directory inside the dump (beside dump.json).
  struct stat dir_st {};
  if (::lstat(tensor_dir.c_str(), &dir_st) == 0 && S_ISLNK(dir_st.st_mode)) {
    char dir_resolved[PATH_MAX], dump_resolved[PATH_MAX];
    const std::string dump_dir = fs::path(tensor_dir).parent_path().string();
    if (!::realpath(tensor_dir.c_str(), dir_resolved)) {
      if (errno == ELOOP) return refuse("symlink loop");
      return candidate;  // a dangling link: the file is missing
    }
    if (!::realpath(dump_dir.empty() ? "." : dump_dir.c_str(), dump_resolved)) return candidate;
    const std::string_view inside(dir_resolved), root(dump_resolved);
    if (!inside.starts_with(root) || inside.size() <= root.size() || inside[root.size()] != '/') {
      return refuse("dump_tensor_data is a symlink leading outside the dump");
    }
  }
  // A plain name with no separator names an entry of tensor_dir itself: only a symlink can lead out.
  // One lstat settles the common case; symlinks get the full realpath comparison.
  struct stat st {};
  if (::lstat(candidate.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return candidate;  // missing: the caller reports it
  char resolved[PATH_MAX];
  if (!::realpath(candidate.c_str(), resolved)) {
    if (errno == ELOOP) return refuse("symlink loop");
    return candidate;  // a dangling link: missing
  }
  char dir_resolved[PATH_MAX];
  if (!::realpath(tensor_dir.c_str(), dir_resolved)) return candidate;
  const std::string_view inside(resolved), root(dir_resolved);
  if (!inside.starts_with(root) || inside.size() <= root.size() || inside[root.size()] != '/') {
    return refuse("symlink leads outside dump_tensor_data");
  }
  return candidate;
}

}  // namespace msprobe
