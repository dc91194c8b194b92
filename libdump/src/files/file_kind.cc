#include "msprobe/dump/files/file_kind.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "msprobe/dump/text/utf8.h"

namespace msprobe {
namespace {

constexpr size_t kSniffBytes = 4096;

// A prefix cut from a longer file may end inside a UTF-8 sequence (at most 3 bytes of it).
bool LooksLikeText(std::string_view head, bool whole_file) {
  if (head.find('\0') != std::string_view::npos || head.starts_with("$Version=")) return false;
  const std::optional<size_t> bad = FindInvalidUtf8(head);
  return !bad || (!whole_file && *bad + 3 >= head.size());
}

// "csv" for "mapping.csv"; "" when the name has no short extension.
std::string Extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  if (ext.size() < 2 || ext.size() > 6) return "";
  ext.erase(0, 1);
  if (!std::all_of(ext.begin(), ext.end(), [](unsigned char c) { return std::isalnum(c); })) return "";
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext;
}

}  // namespace

FileKind SniffFileKind(Bytes head) {
  const std::string_view text = AsChars(head.first(std::min(head.size(), kSniffBytes)));
  if (text.empty()) return FileKind::kEmpty;
  if (text.starts_with("\x93NUMPY")) return FileKind::kNpy;
  if (text.starts_with("PK\x03\x04")) return FileKind::kZip;
  if (text.starts_with("\x80\x02")) return FileKind::kPickle;
  if (LooksLikeText(text, head.size() <= kSniffBytes)) return FileKind::kText;
  return FileKind::kOther;
}

std::string FileKindName(FileKind kind, const std::string& path) {
  const std::string ext = Extension(path);
  switch (kind) {
    case FileKind::kEmpty: return "an empty file";
    case FileKind::kNpy: return "an .npy file";
    case FileKind::kZip:
      if (ext == "xlsx") return "an xlsx workbook (zip archive)";
      if (ext == "zip") return "a zip archive";
      return "a torch .pt file (zip archive)";
    case FileKind::kPickle: return "a legacy torch .pt file (pickle)";
    case FileKind::kText: return ext.empty() ? "a text file" : "a text file (" + ext + ")";
    case FileKind::kOther: break;
  }
  return ext.empty() ? "a binary file" : "a binary file (" + ext + ")";
}

}  // namespace msprobe
