// The small JSON documents we own (compare.json, the capture manifest's lines, …), read with
// nlohmann_json; the dump.json family has json_file.h (docs/formats.md §10).
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "msprobe/dump/util/status.h"

namespace msprobe {

// Reads a small JSON file whole. A parse error is one line naming the file, where and why:
// nlohmann's own text, less its "[json.exception.parse_error.N] " prefix and its "; last read: '…'"
// suffix, which quotes the input's bytes raw (perhaps the very bytes that are not UTF-8).
Result<nlohmann::json> ReadSmallJsonFile(const std::string& path);

// The string member `key` of `doc`; nullptr when `doc` is no object, lacks it, or it is no string.
const std::string* SmallJsonString(const nlohmann::json& doc, const char* key);

}  // namespace msprobe
