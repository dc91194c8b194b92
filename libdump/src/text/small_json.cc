#include "msprobe/dump/text/small_json.h"

#include <string_view>

#include "msprobe/dump/io/mapped_file.h"

namespace msprobe {

Result<nlohmann::json> ReadSmallJsonFile(const std::string& path) {
  MSP_ASSIGN_OR_RETURN(auto file, MappedFile::Open(path));
  MSP_ASSIGN_OR_RETURN(MappedRegion region, file->MapAll());
  try {
    return nlohmann::json::parse(AsChars(region.bytes()));
  } catch (const nlohmann::json::parse_error& e) {
    std::string_view what = e.what();
    what = what.substr(what.find("] ") + 2);
    return Status::InvalidInput(path, "invalid JSON, " + std::string(what.substr(0, what.find("; last read:"))));
  }
}

const std::string* SmallJsonString(const nlohmann::json& doc, const char* key) {
  if (!doc.is_object()) return nullptr;
  const auto m = doc.find(key);
  return m != doc.end() && m->is_string() ? m->get_ptr<const std::string*>() : nullptr;
}

}  // namespace msprobe
