// An output folder made ready before any work, so that a mistake in -o fails in a second rather than
// after the whole job, with one line, and not once per file (docs/compare.md §1.5).
#pragma once

#include <string>
#include <string_view>

#include "msprobe/dump/util/status.h"

namespace msprobe {

// Creates `dir` and its missing parents and checks that it can be written. IOError naming `shown`
// (the path as the user gave it: -o's value, or a file to go in `dir`) and saying to choose another
// `flag` ("-o", "--junit").
Status MakeOutputFolder(const std::string& dir, const std::string& shown, std::string_view flag);

}  // namespace msprobe
