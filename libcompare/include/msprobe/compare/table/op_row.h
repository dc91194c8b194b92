// One row of a flattened dump.json/debug.json (docs/compare.md §2.3): a tensor, a scalar or a None
// argument of one API/module call, with what matching and the output need.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "msprobe/compare/table/cell.h"

namespace msprobe::compare {

enum class RowState : uint8_t { kInput, kOutput, kParameters, kParametersGrad, kDebug };

// Which metrics a compare computes, from the dumps' task (docs/compare.md §2.1).
enum class CompareMode : uint8_t {
  kTensor,   // task "tensor": metrics from the tensor files ("ALL")
  kSummary,  // task "statistics": diffs of the recorded Max/Min/Mean/Norm
  kMd5,      // task "statistics" with md5 (CRC-32) summaries
};

// A torch.distributed.P2POp argument's op and peer, as str() shows them.
struct P2pOpFields {
  std::string op, peer;
};

struct OpRow {
  std::string name;             // full_op_name: data_name without extension, else the structural name
  std::string api;              // api_origin_name: the data key this row came from
  RowState state = RowState::kInput;
  std::string dtype;            // "torch.float32", "Float32", "<class 'int'>", "torch.Size", "None", ...
  std::string shape;            // "[4, 5]", "[]", "(3,)", "None"
  std::array<Cell, 4> stats;    // Max, Min, Mean, Norm as recorded ("None" text when null/missing)
  std::optional<std::string> requires_grad;  // "True"/"False"; nullopt shows as "N/A"
  std::string data_name = "-1"; // tensor file name, "-1" when there is none
  std::string md5;              // recorded md5, or "%08x" CRC-32 of str(value) for non-tensors
  std::optional<std::string> stack_info;  // str(list) of the stack lines, first row of an API only
  // P2POp extras (docs/compare.md §2.3), null when not a P2POp: few rows have them, and a statistics
  // compare holds every golden row, so they live out of line.
  std::shared_ptr<const P2pOpFields> p2p;

  // Calls of the same op_no_number before this one (docs/compare.md §2.2; SplitKey gives the key parts).
  int forward_call_order = 0, backward_call_order = 0;
};

}  // namespace msprobe::compare
