#include "formats/dump_proto_enums_internal.h"

#include <array>

namespace msprobe {
namespace {

// OutputFormat 0..49 in order (docs/kernel_dump.md §1.3); 255 is FORMAT_MAX.
constexpr std::array<std::string_view, 50> kFormats = {
    "NCHW", "NHWC", "ND", "NC1HWC0", "FRACTAL_Z", "NC1C0HWPAD", "NHWC1C0", "FSR_NCHW", "FRACTAL_DECONV",
    "C1HWNC0", "FRACTAL_DECONV_TRANSPOSE", "FRACTAL_DECONV_SP_STRIDE_TRANS", "NC1HWC0_C04", "FRACTAL_Z_C04",
    "CHWN", "FRACTAL_DECONV_SP_STRIDE8_TRANS", "HWCN", "NC1KHKWHWC0", "BN_WEIGHT", "FILTER_HWCK",
    "HASHTABLE_LOOKUP_LOOKUPS", "HASHTABLE_LOOKUP_KEYS", "HASHTABLE_LOOKUP_VALUE", "HASHTABLE_LOOKUP_OUTPUT",
    "HASHTABLE_LOOKUP_HITS", "C1HWNCoC0", "MD", "NDHWC", "FRACTAL_ZZ", "FRACTAL_NZ", "NCDHW", "DHWCN",
    "NDC1HWC0", "FRACTAL_Z_3D", "CN", "NC", "DHWNC", "FRACTAL_Z_3D_TRANSPOSE", "FRACTAL_ZN_LSTM",
    "FRACTAL_Z_G", "RESERVED", "ALL", "NULL", "ND_RNN_BIAS", "FRACTAL_ZN_RNN", "YUV", "YUV_A", "NCL",
    "FRACTAL_Z_WINO", "C1HWC0",
};

// OutputDataType 0..40 in order (§1.3, with msaccucmp's newer 32..40).
constexpr std::array<std::string_view, 41> kDTypes = {
    "UNDEFINED", "FLOAT", "FLOAT16", "INT8", "UINT8", "INT16", "UINT16", "INT32", "INT64", "UINT32", "UINT64",
    "BOOL", "DOUBLE", "STRING", "DUAL_SUB_INT8", "DUAL_SUB_UINT8", "COMPLEX64", "COMPLEX128", "QINT8", "QINT16",
    "QINT32", "QUINT8", "QUINT16", "RESOURCE", "STRING_REF", "DUAL", "VARIANT", "BF16", "INT4", "UINT1", "INT2",
    "UINT2", "COMPLEX32", "HIFLOAT8", "FLOAT8_E5M2", "FLOAT8_E4M3FN", "FLOAT8_E8M0", "FLOAT6_E3M2",
    "FLOAT6_E2M3", "FLOAT4_E2M1", "FLOAT4_E1M2",
};

}  // namespace

std::string_view ProtoFormatName(int64_t format) {
  if (format >= 0 && format < static_cast<int64_t>(kFormats.size())) return kFormats[format];
  if (format == 255) return "MAX";
  return "UNKNOWN";
}

std::string_view ProtoDTypeName(int64_t data_type) {
  if (data_type >= 0 && data_type < static_cast<int64_t>(kDTypes.size())) return kDTypes[data_type];
  return "UNKNOWN";
}

}  // namespace msprobe
