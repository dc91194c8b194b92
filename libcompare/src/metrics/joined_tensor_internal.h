// The tensor of a joined --consistent_check row (docs/compare.md §3.9): the side whose rows were
// joined reads the files of its ';'-joined data_name as msprobe's verl reader does, one of them or
// their concatenation.
#pragma once

#include <string>

#include "metrics/loaded_tensor_internal.h"
#include "msprobe/compare/rows/consistent_keys.h"

namespace msprobe::compare::internal {

// A joined tensor is held whole: its files may hold this many elements together.
inline constexpr uint64_t kJoinedTensorMaxElements = uint64_t{1} << 28;

// Whether the backend's reader concatenates this side's data_name (fsdp: the target's, when it names
// a .q_proj. or .gate_proj. file; megatron: the golden's, .gate_up_proj.).
bool ReadsJoined(ConsistentBackend backend, bool target, const std::string& data_name);

// The files of `data_name` split on ';': the first alone for an input (".input."), else the squeezed
// tensors concatenated along axis 0 for parameters (".parameters."), along axis 1 otherwise. Errors
// when a file cannot be read, or the tensors' dtypes, ranks or other dimensions differ.
Result<LoadedTensor> LoadJoined(const std::string& dir, const std::string& data_name);

}  // namespace msprobe::compare::internal
