// Outputs never land on inputs: an output file that is an input, or an output directory at or inside
// an input directory (or inside a dump.json's dump_tensor_data), is refused before anything is
// written. Paths are compared after resolving symlinks and "..", so no spelling gets around it.
#pragma once

#include <string>
#include <vector>

#include "msprobe/dump/util/status.h"

namespace msprobe {

// `output` is a directory (`is_dir`) or a file that need not exist yet. Each input is a file or a
// directory; inputs that do not exist are skipped (their own reader reports them). InvalidInput
// naming the output and the input it would land on.
Status CheckOutputOutsideInputs(const std::string& output, bool is_dir, const std::vector<std::string>& inputs);

}  // namespace msprobe
