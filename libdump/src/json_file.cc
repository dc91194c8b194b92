#include "msprobe/dump/json_file.h"

#include <fmt/format.h>
#include <rapidjson/error/en.h>

#include "msprobe/dump/mapped_file.h"

namespace msprobe {

Result<rapidjson::Document> ParseJsonText(std::string_view text, const std::string& source) {
  rapidjson::Document doc;
  // Full precision: the default fast path can be 1 ulp off, and msprobe's values are Python's exact
  // doubles. Iterative: a hostile file nested a million levels deep must not overflow the stack.
  constexpr unsigned kFlags =
      rapidjson::kParseNanAndInfFlag | rapidjson::kParseFullPrecisionFlag | rapidjson::kParseIterativeFlag;
  doc.Parse<kFlags>(text.data(), text.size());
  if (doc.HasParseError()) {
    return Status::InvalidInput(source, fmt::format("invalid JSON at byte {}: {}", doc.GetErrorOffset(),
                                                    rapidjson::GetParseError_En(doc.GetParseError())));
  }
  return doc;
}

Result<rapidjson::Document> ReadJsonFile(const std::string& path) {
  MSP_ASSIGN_OR_RETURN(auto file, MappedFile::Open(path));
  MSP_ASSIGN_OR_RETURN(MappedRegion region, file->MapAll());
  if (region.bytes().empty()) return Status::InvalidInput(path, "empty file, expected JSON");
  return ParseJsonText(AsChars(region.bytes()), path);
}

const JsonValue* Member(const JsonValue& object, const char* key) {
  if (!object.IsObject()) return nullptr;
  const auto it = object.FindMember(key);
  return it == object.MemberEnd() ? nullptr : &it->value;
}

const char* StringMember(const JsonValue& object, const char* key) {
  const JsonValue* v = Member(object, key);
  return v && v->IsString() ? v->GetString() : nullptr;
}

}  // namespace msprobe
