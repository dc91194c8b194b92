// Loads a JSON file the way msprobe's files need: the bare tokens NaN, Infinity and -Infinity are
// numbers (formats.md §1.7), key order is kept, and a parse error names the file and byte offset.
// RapidJSON is the one JSON library of the project (fast, ordered members, NaN/Inf support).
#pragma once

#include <rapidjson/document.h>

#include <functional>
#include <string>
#include <string_view>

#include "msprobe/dump/status.h"

namespace msprobe {

using JsonValue = rapidjson::Value;

Result<rapidjson::Document> ParseJsonText(std::string_view text, const std::string& source);
Result<rapidjson::Document> ReadJsonFile(const std::string& path);

// Small typed accessors that return nullptr / nullopt instead of asserting on the wrong type.
const JsonValue* Member(const JsonValue& object, const char* key);
const char* StringMember(const JsonValue& object, const char* key);

}  // namespace msprobe

namespace msprobe {

using JsonMemberFn = std::function<Status(std::string_view key, const JsonValue& value)>;

// Streams a JSON file whose top level is an object: `on_member` gets each top-level member except
// `expand`, which must be an object: it is announced to `on_member` as an empty object, then its
// members go one by one to `on_entry`. Each value is
// parsed into its own document and dropped after the call, so memory stays at the size of one member
// however large the file (a dump.json's "data" reaches hundreds of MB). Same parse rules and error
// messages as ReadJsonFile.
Status StreamJsonObject(const std::string& path, std::string_view expand, const JsonMemberFn& on_member,
                        const JsonMemberFn& on_entry);

}  // namespace msprobe
