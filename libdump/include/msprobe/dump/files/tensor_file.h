// Opens any tensor file the toolkit reads, by its content rather than its name: .npy (magic
// "\x93NUMPY"), torch.save zip (.pt), or the legacy torch format (refused with a clear message).
#pragma once

#include <string>
#include <vector>

#include "msprobe/dump/tensor/tensor.h"

namespace msprobe {

Result<TensorInfo> ReadTensorFile(const std::string& path);

struct LabeledTensor {
  std::string label;  // the path; for a kernel .bin slot "path:input.0", "path:output.1", ...
  TensorInfo info;
};
// Every tensor a file holds: the one of a .npy/.pt, or each decodable input/output slot of a kernel
// .bin dump in its device layout (buffers, workspaces and undecodable dtypes are left out).
Result<std::vector<LabeledTensor>> ReadTensorsOfFile(const std::string& path);

}  // namespace msprobe
