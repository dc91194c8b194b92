// Loads a JSON file the way msprobe's files need: the bare tokens NaN, Infinity and -Infinity are
// numbers (formats.md §1.7), key order is kept, and a parse error names the file and byte offset.
// RapidJSON is the one JSON library of the project (fast, ordered members, NaN/Inf support).
#pragma once

#include <rapidjson/document.h>

#include <string>

#include "msprobe/dump/status.h"

namespace msprobe {

using JsonValue = rapidjson::Value;

Result<rapidjson::Document> ParseJsonText(std::string_view text, const std::string& source);
Result<rapidjson::Document> ReadJsonFile(const std::string& path);

// Small typed accessors that return nullptr / nullopt instead of asserting on the wrong type.
const JsonValue* Member(const JsonValue& object, const char* key);
const char* StringMember(const JsonValue& object, const char* key);

}  // namespace msprobe
