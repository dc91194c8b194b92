// --align (docs/compare.md §3.8): what a dumped call is, by its key alone. Its stream (an API or a
// module; forward, backward or parameter gradients), aligned apart from the others, and its op's own
// name under any namespace: "Functional.softmax", "Torch.softmax" and "Tensor.softmax" are one op.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "msprobe/compare/rows/flatten.h"

namespace msprobe::compare::internal {

// Module and API entries align apart: a framework records a module before or after the calls inside
// it as its hooks fire, so their interleaving differs between runs that agree call for call.
enum class CallStream : uint8_t { kApiForward, kApiBackward, kModuleForward, kModuleBackward, kParametersGrad, kNone };
inline constexpr size_t kCallStreams = 5;  // the streams before kNone

// The stream of an entry of a dump.json (kNone: a key SplitKey leaves empty).
CallStream StreamOf(const KeyParts& parts);

// The op of an entry (its KeyParts::op_no_number) with the namespace and spelling taken away:
//   Functional.softmax, Torch.softmax, Tensor.softmax                  → softmax
//   Tensor.__add__, Tensor.__radd__, Tensor.__iadd__, Tensor.add_     → add
//   NPU.npu_rms_norm, Primitive.norm.RmsNorm, Functional.rms_norm     → rms_norm
//   Module.layers.0.fc.Linear, Cell.blocks.0.fc.Dense                 → linear
// then our table of aliases (api_alias_table.cc). `mindspore`: the entry is from a MindSpore dump, whose
// own names -am's built-in table renames first (Functional.dense → Functional.linear).
std::string OpIdentity(std::string_view op_no_number, bool mindspore);

// The alias an op name (already lower snake case) stands for, or the name itself.
std::string_view OpAlias(std::string_view op);

}  // namespace msprobe::compare::internal
