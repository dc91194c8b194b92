#include "msprobe/dump/kernel/capture_manifest.h"

#include <filesystem>
#include <fstream>

#include "msprobe/dump/text/small_json.h"

namespace msprobe {
namespace {

namespace fs = std::filesystem;

void AddLine(std::string_view line, CaptureSummary* s) {
  const nlohmann::json d = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (!d.is_object()) return;  // also a line that did not parse: nlohmann marks it discarded
  const std::string* status = SmallJsonString(d, "status");
  if (!status) return;
  if (*status == "dropped") {
    ++s->dropped;
    if (const std::string* reason = SmallJsonString(d, "reason")) ++s->drop_reasons[*reason];
    return;
  }
  ++s->ops;
  if (const std::string* op_type = SmallJsonString(d, "op_type")) ++s->by_type[*op_type];
  if (*status == "stats") ++s->stats_ops;
  if (*status == "written") {
    ++s->files;
    const auto bytes = d.find("bytes");
    if (bytes != d.end() && bytes->is_number_unsigned()) s->bytes += bytes->get<uint64_t>();
  }
}

}  // namespace

CaptureSummary SummarizeCaptureManifest(std::string_view text) {
  CaptureSummary s;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    AddLine(text.substr(0, end), &s);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
  }
  return s;
}

Result<CaptureSummary> ReadCaptureManifest(const std::string& path, uint64_t skip) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IOError(path, "cannot open the capture manifest");
  in.seekg(static_cast<std::streamoff>(skip));
  // Line by line: a long run's manifest may be large.
  CaptureSummary s;
  for (std::string line; std::getline(in, line);) AddLine(line, &s);
  return s;
}

std::map<std::string, uint64_t> FindCaptureManifests(const std::string& dir) {
  std::map<std::string, uint64_t> out;
  std::error_code ec;
  for (const auto& rank : fs::directory_iterator(dir, ec)) {
    if (rank.path().filename().string().rfind("rank_", 0) != 0) continue;
    for (const auto& run : fs::directory_iterator(rank.path(), ec)) {
      const fs::path manifest = run.path() / "manifest.jsonl";
      if (fs::is_regular_file(manifest, ec)) out.emplace(manifest.string(), fs::file_size(manifest, ec));
    }
  }
  return out;
}

}  // namespace msprobe
