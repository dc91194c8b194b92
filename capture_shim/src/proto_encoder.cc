// Encoder for the DumpData header (docs/kernel_dump.md §1.2 field numbers).
#include "proto_encoder.h"

namespace msprobe::capture {
namespace {

constexpr uint32_t kWireVarint = 0;
constexpr uint32_t kWireLen = 2;

// DumpData fields.
constexpr uint32_t kDumpVersion = 1, kDumpTime = 2, kDumpOutput = 3, kDumpInput = 4, kDumpOpName = 6;
// OpOutput and OpInput share data_type = 1, format = 2, shape = 3; then they differ.
constexpr uint32_t kTensorDType = 1, kTensorFormat = 2, kTensorShape = 3;
constexpr uint32_t kOutputSize = 6, kOutputOriginalShape = 7;
constexpr uint32_t kInputSize = 5, kInputOriginalShape = 6;
constexpr uint32_t kShapeDim = 1;

std::string EncodeShape(const std::vector<int64_t>& dims) {
  std::string packed;
  for (int64_t d : dims) PutVarint64(&packed, static_cast<uint64_t>(d));
  std::string shape;
  if (!dims.empty()) PutBytesField(&shape, kShapeDim, packed);
  return shape;
}

std::string EncodeTensor(const DumpTensor& t, bool is_output) {
  std::string out;
  // proto3 leaves zero-valued scalars out; int32 enums are sign-extended varints.
  if (t.proto_dtype != 0) PutVarintField(&out, kTensorDType, static_cast<uint64_t>(static_cast<int64_t>(t.proto_dtype)));
  if (t.proto_format != 0) PutVarintField(&out, kTensorFormat, static_cast<uint64_t>(static_cast<int64_t>(t.proto_format)));
  const std::string shape = EncodeShape(t.dims);
  PutBytesField(&out, kTensorShape, shape);
  if (t.size != 0) PutVarintField(&out, is_output ? kOutputSize : kInputSize, t.size);
  PutBytesField(&out, is_output ? kOutputOriginalShape : kInputOriginalShape, shape);
  return out;
}

}  // namespace

void PutVarint64(std::string* dst, uint64_t v) {
  while (v >= 0x80) {
    dst->push_back(static_cast<char>(v | 0x80));
    v >>= 7;
  }
  dst->push_back(static_cast<char>(v));
}

void PutTag(std::string* dst, uint32_t field, uint32_t wire_type) { PutVarint64(dst, (field << 3) | wire_type); }

void PutVarintField(std::string* dst, uint32_t field, uint64_t v) {
  PutTag(dst, field, kWireVarint);
  PutVarint64(dst, v);
}

void PutBytesField(std::string* dst, uint32_t field, std::string_view v) {
  PutTag(dst, field, kWireLen);
  PutVarint64(dst, v.size());
  dst->append(v);
}

std::string EncodeDumpHeader(const DumpHeader& header) {
  std::string out;
  PutBytesField(&out, kDumpVersion, "2.0");
  PutVarintField(&out, kDumpTime, header.dump_time_us);
  for (const DumpTensor& t : header.outputs) PutBytesField(&out, kDumpOutput, EncodeTensor(t, true));
  for (const DumpTensor& t : header.inputs) PutBytesField(&out, kDumpInput, EncodeTensor(t, false));
  PutBytesField(&out, kDumpOpName, header.op_name);
  return out;
}

std::string EncodeHeaderLength(uint64_t header_bytes) {
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i) out[i] = static_cast<char>((header_bytes >> (8 * i)) & 0xff);
  return out;
}

}  // namespace msprobe::capture
