// The timestamp in every output file name msprobe writes: time.strftime("%Y%m%d%H%M%S") in local
// time (docs/compare.md §1.4).
#pragma once

#include <string>

namespace msprobe::compare {

std::string OutputTimestamp();

}  // namespace msprobe::compare
