// A JSON object as the dict Python's json.load makes of it: a key repeated in the text keeps the
// place of its first occurrence and the value of its last. data2db's rules iterate such dicts.
#pragma once

#include <string_view>
#include <utility>
#include <vector>

#include "msprobe/dump/text/json_file.h"

namespace msprobe::compare::internal {

// The members of `object` (which must be an object) in dict order; views into it.
std::vector<std::pair<std::string_view, const JsonValue*>> DictItems(const JsonValue& object);

}  // namespace msprobe::compare::internal
