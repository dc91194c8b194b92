// One dump.json entry as data2db reads it (docs/trend.md §5): its metric (forward, backward,
// recompute, parameters_grad) and target prefix from its key, and the tensors it keeps, each with
// the suffix that completes its target's name.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "msprobe/dump/text/json_file.h"

namespace msprobe::compare::internal {

// --mapping: (from, to) pairs applied in order to every key, as plain text replacements.
using NameMapping = std::vector<std::pair<std::string, std::string>>;

struct EntryTarget {
  int metric = 0;       // 1 forward, 2 backward, 3 recompute, 4 parameters_grad (kDumpMetrics order)
  std::string prefix;   // the key without .forward/.backward/.parameters_grad and the call index
  int64_t call = 0;     // the call index: the key's last part when it is a number, else 0
};

// The metric and target of a (renamed) key; nullopt for a key that names none.
std::optional<EntryTarget> TargetOfKey(std::string_view key, const JsonValue& entry, const NameMapping& mapping);

// Calls `visit(suffix, tensor)` for each tensor of `entry` data2db keeps, in its order: a tensor
// object whose type is torch/mindspore/mindtorch.Tensor and whose dtype is float16, float32 or
// bfloat16 in either spelling. Forward (and recompute): input_args ".input.i", output ".output.i",
// parameters ".parameters.<name>"; backward: input, output; parameters_grad: ".<name>" per member.
using TensorVisitor = std::function<void(std::string_view suffix, const JsonValue& tensor)>;
void ForEachKeptTensor(int metric, const JsonValue& entry, const TensorVisitor& visit);

}  // namespace msprobe::compare::internal
