// The self error of every API call of one dump (docs/ops.md §5): each forward entry of a dump.json
// recomputed from its own dumped inputs, on every core.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "msprobe/dump/framework/dump_json.h"
#include "msprobe/dump/util/job_context.h"
#include "msprobe/dump/util/status.h"
#include "msprobe/ops/check/self_error.h"

namespace msprobe::ops {

struct CallCheck {
  std::string key;  // the dump.json entry: "Functional.linear.0.forward"
  SelfCheck check;
};

struct DumpCheck {
  std::vector<CallCheck> calls;  // the forward API entries, in file (execution) order
  uint64_t skipped = 0;          // entries that are not an API's forward call: backward, modules
};

// A dump's forward API calls counted without loading a tensor: its header, how many there are, how
// many of them have a float64 reference, and the first call. What recompute decides from before any
// work: a dump with nothing to recompute, and the progress total.
struct DumpCallCount {
  DumpJsonHeader header;
  uint64_t calls = 0, with_reference = 0;
  std::string first_call;  // "" when there is none
};
Result<DumpCallCount> CountDumpCalls(const std::string& dump_json);

// Reads `dump_json` (streamed) and checks every forward API entry against the tensors of its
// dump_tensor_data. The calls run in parallel, each holding only its own tensors. Errors: the
// dump.json cannot be read or parsed; a call whose tensors cannot be read is reported unsupported
// with the reason, not as an error. Progress: (dump_json, calls checked, calls in all).
Result<DumpCheck> CheckDumpCalls(const std::string& dump_json, const Progress& progress = {});

}  // namespace msprobe::ops
