// Opens any tensor file the toolkit reads, by its content rather than its name: .npy (magic
// "\x93NUMPY"), torch.save zip (.pt), or the legacy torch format (refused with a clear message).
#pragma once

#include <string>

#include "msprobe/dump/tensor.h"

namespace msprobe {

Result<TensorInfo> ReadTensorFile(const std::string& path);

}  // namespace msprobe
