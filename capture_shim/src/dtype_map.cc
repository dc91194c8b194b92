// Dtype and format code tables (docs/kernel_dump.md §1.3, §2.3).
#include "dtype_map.h"

#include <array>
#include <utility>

namespace msprobe::capture {
namespace {

// {aclDataType, OutputDataType}.
constexpr std::array<std::pair<int32_t, int32_t>, 18> kDTypes{{
    {0, 1}, {1, 2}, {2, 3}, {3, 7}, {4, 4}, {6, 5}, {7, 6}, {8, 9}, {9, 8},
    {10, 10}, {11, 12}, {12, 11}, {13, 13}, {16, 16}, {17, 17}, {27, 27}, {29, 28}, {30, 29},
}};

constexpr std::array<std::string_view, 32> kDTypeNames{
    "UNDEFINED", "FLOAT", "FLOAT16", "INT8", "UINT8", "INT16", "UINT16", "INT32", "INT64", "UINT32", "UINT64",
    "BOOL", "DOUBLE", "STRING", "DUAL_SUB_INT8", "DUAL_SUB_UINT8", "COMPLEX64", "COMPLEX128", "QINT8", "QINT16",
    "QINT32", "QUINT8", "QUINT16", "RESOURCE", "STRING_REF", "DUAL", "VARIANT", "BF16", "INT4", "UINT1", "INT2",
    "UINT2"};

constexpr std::array<std::pair<int32_t, std::string_view>, 14> kFormatNames{{
    {0, "NCHW"}, {1, "NHWC"}, {2, "ND"}, {3, "NC1HWC0"}, {4, "FRACTAL_Z"}, {12, "NC1HWC0_C04"}, {16, "HWCN"},
    {27, "NDHWC"}, {29, "FRACTAL_NZ"}, {30, "NCDHW"}, {32, "NDC1HWC0"}, {33, "FRACTAL_Z_3D"}, {35, "NC"},
    {47, "NCL"},
}};

}  // namespace

int32_t ProtoDType(int32_t acl_dtype) {
  for (const auto& [acl, proto] : kDTypes) {
    if (acl == acl_dtype) return proto;
  }
  return 0;
}

int32_t ProtoFormat(int32_t acl_format) { return acl_format < 0 ? 2 : acl_format; }

std::string_view ProtoDTypeName(int32_t proto_dtype) {
  if (proto_dtype < 0 || proto_dtype >= static_cast<int32_t>(kDTypeNames.size())) return "UNKNOWN";
  return kDTypeNames[proto_dtype];
}

std::string_view ProtoFormatName(int32_t proto_format) {
  for (const auto& [code, name] : kFormatNames) {
    if (code == proto_format) return name;
  }
  return "UNKNOWN";
}

}  // namespace msprobe::capture
