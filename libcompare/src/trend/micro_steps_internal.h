// The micro steps of one rank's step (docs/trend.md §5): from construct.json, which call of the
// model each dump.json key belongs to (every top-level Module/Cell call and the optimizer open one),
// and each key renamed so that call indices restart at 0 in every micro step, as msprobe's data2db
// numbers them.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "msprobe/dump/text/json_file.h"
#include "msprobe/dump/util/status.h"

namespace msprobe::compare::internal {

struct MicroStepKey {
  int64_t micro = 0;    // the micro step, from 0
  std::string renamed;  // the key with its call index renumbered within the micro step
};

struct MicroSteps {
  struct Hash {
    using is_transparent = void;  // looked up by the string_view keys of the stream
    size_t operator()(std::string_view key) const { return std::hash<std::string_view>()(key); }
  };
  // Every key of construct.json under a root, and nothing else: data2db keeps only the dump.json
  // entries listed here, unless it is empty (no root at all), when it keeps every entry as it is.
  std::unordered_map<std::string, MicroStepKey, Hash, std::equal_to<>> keys;
  int64_t count = 1;  // micro steps in the file: the highest + 1, 1 when there is none
};

// Reads construct.json (its Megatron form too, whose values are [parent, n]). Errors: unreadable
// or invalid JSON, not an object, a parent that is neither a name nor null, a Megatron value that is
// not a pair, parents that form a cycle.
Result<MicroSteps> ReadMicroSteps(const std::string& construct_json);
// The same over a parsed document; `source` names it in errors.
Result<MicroSteps> MicroStepsOf(const JsonValue& construct, const std::string& source);

}  // namespace msprobe::compare::internal
