// Runtime (aclDataType / aclFormat) codes → the dump proto's OutputDataType / OutputFormat codes and the
// upper-case names msprobe writes (docs/kernel_dump.md §2.3, docs/capture.md A4: the two dtype numberings differ).
#pragma once

#include <cstdint>
#include <string_view>

namespace msprobe::capture {

// OutputDataType for an aclDataType; DT_UNDEFINED (0) for types the dump proto has no value for.
int32_t ProtoDType(int32_t acl_dtype);
// OutputFormat for an aclFormat (the shared members have equal values); FORMAT_ND for UNDEFINED.
int32_t ProtoFormat(int32_t acl_format);
// "FLOAT", "FLOAT16", "BF16", … for an OutputDataType; "UNKNOWN" otherwise.
std::string_view ProtoDTypeName(int32_t proto_dtype);
// "NCHW", "ND", "FRACTAL_NZ", … for an OutputFormat; "UNKNOWN" otherwise.
std::string_view ProtoFormatName(int32_t proto_format);

}  // namespace msprobe::capture
