// Tier T2 (docs/capture.md A8.1/A8.2): capture the inputs and outputs of one aclopExecute[V2] call with
// copies ordered on the op's own stream, so that no device memory is read after the hook returns.
//   Begin: read the descriptions, reserve budget, allocate host buffers, enqueue the input copies.
//   (the hook calls the real op)
//   End:   enqueue the output copies and a host function that hands the record to the writer.
#pragma once

#include "acl_types.h"
#include "capture_record.h"
#include "capture_state.h"

namespace msprobe::capture {

// The record of a captured call, or null when this call is not captured (not selected, or dropped:
// a dropped call is logged in the manifest).
CaptureRecord* BeginOpCapture(CaptureState& state, const char* op_type, int num_inputs,
                              const aclTensorDesc* const* input_desc, const aclDataBuffer* const* inputs,
                              int num_outputs, const aclTensorDesc* const* output_desc,
                              const aclDataBuffer* const* outputs, aclrtStream stream) noexcept;

void EndOpCapture(CaptureState& state, CaptureRecord* record, aclError op_result,
                  const aclDataBuffer* const* outputs, aclrtStream stream) noexcept;

}  // namespace msprobe::capture
