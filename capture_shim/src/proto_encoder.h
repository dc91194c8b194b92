// A hand-written protobuf encoder for the DumpData header of kernel .bin dumps (docs/kernel_dump.md §1.2),
// in LevelDB's util/coding.h style: Put* append to a std::string. No libprotobuf: the host process may
// carry its own copy, and two copies registering the same .proto abort (docs/capture.md A8.7 item 6).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace msprobe::capture {

// Protobuf wire primitives.
void PutVarint64(std::string* dst, uint64_t v);
void PutTag(std::string* dst, uint32_t field, uint32_t wire_type);
void PutVarintField(std::string* dst, uint32_t field, uint64_t v);         // wire type 0
void PutBytesField(std::string* dst, uint32_t field, std::string_view v);  // wire type 2

// One input or output entry of the header; `data` stays empty in version 2.0 files.
struct DumpTensor {
  int32_t proto_dtype = 0;      // OutputDataType
  int32_t proto_format = 2;     // OutputFormat (FORMAT_ND)
  std::vector<int64_t> dims;    // device shape, also written as original_shape
  uint64_t size = 0;            // bytes in the data section
};

struct DumpHeader {
  uint64_t dump_time_us = 0;
  std::string op_name;                // unsanitized
  std::vector<DumpTensor> inputs;
  std::vector<DumpTensor> outputs;
};

// Serialises `header` as toolkit.dumpdata.DumpData with version "2.0", fields in number order
// (outputs, field 3, before inputs, field 4), shapes packed.
std::string EncodeDumpHeader(const DumpHeader& header);

// The 8-byte little-endian header length that precedes the header in a .bin file.
std::string EncodeHeaderLength(uint64_t header_bytes);

}  // namespace msprobe::capture
