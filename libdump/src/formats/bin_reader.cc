#include "msprobe/dump/formats/bin_reader.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <limits>

#include "formats/dump_proto_enums_internal.h"
#include "msprobe/dump/io/mapped_file.h"
#include "formats/protobuf_wire.h"

namespace msprobe {
namespace {

using protobuf_wire::Field;
using protobuf_wire::WireType;

constexpr uint32_t kNanoMagic = 0x5A5A5A5A;  // TLV header of nano dumps (§1.6)
constexpr std::string_view kAtbMagic = "$Version=";  // ATB tensor .bin text header (§9)
constexpr uint64_t kMaxInt64 = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());

// Field numbers of one slot message; 0 when the message has no such field (§1.2).
struct SlotFields {
  uint32_t dtype, format, shape, data, size, original_shape, sub_format;
};
constexpr SlotFields kOutputFields{1, 2, 3, 5, 6, 7, 8};
constexpr SlotFields kInputFields{1, 2, 3, 4, 5, 6, 7};
constexpr SlotFields kBufferFields{0, 0, 0, 2, 3, 0, 0};  // OpBuffer{buffer_type=1, data=2, size=3}
constexpr SlotFields kSpaceFields{0, 0, 0, 2, 3, 0, 0};   // Workspace{type=1, data=2, size=3}

// A slot as declared, before validation.
struct RawSlot {
  BinSlotKind kind = BinSlotKind::kInput;
  int64_t dtype = 0;
  int64_t format = 0;
  int64_t sub_format = 0;
  std::vector<uint64_t> shape;
  std::vector<uint64_t> original_shape;
  uint64_t size = 0;
  uint64_t inline_data = 0;  // bytes of the `data` field (empty in 2.0 files)
};

std::string SlotName(BinSlotKind kind, uint32_t index) {
  return fmt::format("{} {}", SlotKindName(kind), index);
}

// Shape{repeated uint64 dim = 1}: packed (proto3 default) or one varint per dim.
Status ParseShape(ByteCursor& c, uint64_t end, std::vector<uint64_t>* dims) {
  while (c.Offset() < end) {
    MSP_ASSIGN_OR_RETURN(Field f, protobuf_wire::ReadField(c, end));
    if (f.number != 1) {
      MSP_RETURN_IF_ERROR(protobuf_wire::SkipPayload(c, f));
    } else if (f.wire == WireType::kVarint) {
      dims->push_back(f.value);
    } else if (f.wire == WireType::kLen) {
      while (c.Offset() < f.end) {
        MSP_ASSIGN_OR_RETURN(uint64_t dim, c.Varint());
        dims->push_back(dim);
      }
      if (c.Offset() != f.end) {
        return c.Error(fmt::format("packed shape dims at offset {} run past their {} bytes", f.key_offset, f.value));
      }
    } else {
      MSP_RETURN_IF_ERROR(protobuf_wire::ExpectWire(c, f, WireType::kVarint, "Shape.dim"));
    }
  }
  return Status::Ok();
}

Status ParseSlot(ByteCursor& c, uint64_t end, const SlotFields& fields, RawSlot* slot) {
  while (c.Offset() < end) {
    MSP_ASSIGN_OR_RETURN(Field f, protobuf_wire::ReadField(c, end));
    const uint32_t n = f.number;
    if (n == fields.dtype || n == fields.format || n == fields.size || n == fields.sub_format) {
      MSP_RETURN_IF_ERROR(protobuf_wire::ExpectWire(c, f, WireType::kVarint, "a slot's dtype/format/size"));
      if (n == fields.dtype) slot->dtype = static_cast<int32_t>(f.value);  // enums are int32
      if (n == fields.format) slot->format = static_cast<int32_t>(f.value);
      if (n == fields.size) slot->size = f.value;
      if (n == fields.sub_format) slot->sub_format = static_cast<int32_t>(f.value);  // 10-byte negatives
    } else if (n == fields.shape || n == fields.original_shape) {
      MSP_RETURN_IF_ERROR(protobuf_wire::ExpectWire(c, f, WireType::kLen, "a slot's shape"));
      MSP_RETURN_IF_ERROR(ParseShape(c, f.end, n == fields.shape ? &slot->shape : &slot->original_shape));
    } else if (n == fields.data) {
      MSP_RETURN_IF_ERROR(protobuf_wire::ExpectWire(c, f, WireType::kLen, "a slot's data"));
      slot->inline_data = f.value;
      MSP_RETURN_IF_ERROR(protobuf_wire::SkipPayload(c, f));
    } else {
      MSP_RETURN_IF_ERROR(protobuf_wire::SkipPayload(c, f));  // original_op, address, dim_range, ...
    }
  }
  return Status::Ok();
}

struct Header {
  std::string version;
  uint64_t dump_time = 0;
  std::string op_name;
  std::vector<RawSlot> inputs, outputs, buffers, spaces;
};

Status ParseHeader(ByteCursor& c, uint64_t end, Header* h) {
  while (c.Offset() < end) {
    MSP_ASSIGN_OR_RETURN(Field f, protobuf_wire::ReadField(c, end));
    switch (f.number) {
      case 1:
      case 6: {
        MSP_RETURN_IF_ERROR(protobuf_wire::ExpectWire(c, f, WireType::kLen, f.number == 1 ? "version" : "op_name"));
        MSP_ASSIGN_OR_RETURN(std::string_view text, protobuf_wire::ReadString(c, f));
        (f.number == 1 ? h->version : h->op_name) = std::string(text);
        break;
      }
      case 2:
        MSP_RETURN_IF_ERROR(protobuf_wire::ExpectWire(c, f, WireType::kVarint, "dump_time"));
        h->dump_time = f.value;
        break;
      case 3:
      case 4:
      case 5:
      case 8: {
        MSP_RETURN_IF_ERROR(protobuf_wire::ExpectWire(c, f, WireType::kLen, "a DumpData slot"));
        const BinSlotKind kind = f.number == 3   ? BinSlotKind::kOutput
                                 : f.number == 4 ? BinSlotKind::kInput
                                 : f.number == 5 ? BinSlotKind::kBuffer
                                                 : BinSlotKind::kWorkspace;
        const SlotFields& fields = f.number == 3   ? kOutputFields
                                   : f.number == 4 ? kInputFields
                                   : f.number == 5 ? kBufferFields
                                                   : kSpaceFields;
        auto& list = f.number == 3 ? h->outputs : f.number == 4 ? h->inputs : f.number == 5 ? h->buffers : h->spaces;
        RawSlot slot;
        slot.kind = kind;
        MSP_RETURN_IF_ERROR(ParseSlot(c, f.end, fields, &slot));
        list.push_back(std::move(slot));
        break;
      }
      default:
        MSP_RETURN_IF_ERROR(protobuf_wire::SkipPayload(c, f));  // attr (7) and newer fields
    }
  }
  return Status::Ok();
}

std::string DimsText(const std::vector<uint64_t>& dims) { return fmt::format("[{}]", fmt::join(dims, ", ")); }

// Checks one declared slot against its size and builds the BinSlot (§1.4 step 6).
Result<BinSlot> ValidateSlot(const RawSlot& raw, uint32_t index, uint64_t file_offset, const std::string& source) {
  const std::string name = SlotName(raw.kind, index);
  BinSlot slot;
  slot.kind = raw.kind;
  slot.index = index;
  slot.proto_dtype = raw.dtype;
  slot.format = raw.format;
  slot.size = raw.size;
  if (raw.inline_data != 0) {
    return Status::Unsupported(source, fmt::format("{} carries {} bytes of inline data (dump version 1), which is "
                                                   "not supported", name, raw.inline_data));
  }
  if (raw.sub_format < 0) {
    return Status::InvalidInput(source, fmt::format("{} has negative sub_format {}", name, raw.sub_format));
  }
  slot.sub_format = static_cast<int32_t>(raw.sub_format);
  const bool has_dtype = raw.kind == BinSlotKind::kInput || raw.kind == BinSlotKind::kOutput;
  if (has_dtype) slot.dtype = FromProtoId(static_cast<int>(raw.dtype));

  // Device dims: every one a valid int64, the product without overflow.
  uint64_t numel = 1;
  bool has_zero = false;
  for (size_t d = 0; d < raw.shape.size(); ++d) {
    const uint64_t dim = raw.shape[d];
    if (dim > kMaxInt64) {
      return Status::InvalidInput(source, fmt::format("{}: device shape dim {} is {} (an unknown or negative dim)",
                                                      name, d, static_cast<int64_t>(dim)));
    }
    if (dim == 0) {
      has_zero = true;
    } else if (numel > kMaxInt64 / dim) {
      return Status::InvalidInput(source, fmt::format("{}: device shape {} has more than 2^63 elements", name,
                                                      DimsText(raw.shape)));
    } else {
      numel *= dim;
    }
  }
  if (has_zero) numel = 0;
  for (uint64_t dim : raw.shape) slot.device_shape.push_back(static_cast<int64_t>(dim));

  bool known_original = true;
  for (uint64_t dim : raw.original_shape) known_original = known_original && dim <= kMaxInt64;
  if (known_original) slot.original_shape.emplace(raw.original_shape.begin(), raw.original_shape.end());

  slot.tensor.path = source;
  slot.tensor.data_offset = file_offset;
  if (!slot.dtype) {  // raw bytes: uint8 [size]
    slot.tensor.dtype = DType::kU8;
    slot.tensor.shape = {static_cast<int64_t>(raw.size)};
    slot.tensor.storage_elements = raw.size;
    return slot;
  }
  const DType dtype = *slot.dtype;
  slot.tensor.dtype = dtype;
  if (raw.shape.empty() && raw.size > 0) {
    // No device shape: a scalar when the size is one element, else a vector (§1.4 recommendation).
    const uint64_t bits = Info(dtype).bits;
    if ((raw.size * 8) % bits != 0 || raw.size > kMaxInt64 / 8) {
      return Status::InvalidInput(source, fmt::format("{} has no shape and {} bytes, not a whole number of {} "
                                                      "elements", name, raw.size, Name(dtype)));
    }
    numel = raw.size * 8 / bits;
    if (numel != 1) slot.device_shape = {static_cast<int64_t>(numel)};
  }
  if (numel > std::numeric_limits<uint64_t>::max() / Info(dtype).bits) {
    return Status::InvalidInput(source, fmt::format("{}: device shape {} of {} is too large", name,
                                                    DimsText(raw.shape), Name(dtype)));
  }
  const uint64_t expected = ByteSize(dtype, numel);
  if (expected != raw.size) {
    return Status::InvalidInput(source, fmt::format("{}: device shape {} of {} needs {} bytes, but its size is {}",
                                                    name, DimsText(raw.shape), Name(dtype), expected, raw.size));
  }
  slot.tensor.shape = slot.device_shape;
  slot.tensor.storage_elements = numel;
  return slot;
}

}  // namespace

std::string_view SlotKindName(BinSlotKind kind) {
  switch (kind) {
    case BinSlotKind::kInput: return "input";
    case BinSlotKind::kOutput: return "output";
    case BinSlotKind::kBuffer: return "buffer";
    case BinSlotKind::kWorkspace: return "workspace";
  }
  return "slot";
}

Result<BinFile> ParseBin(Bytes file, const std::string& source) {
  const uint64_t file_size = file.size();
  if (AsChars(file).starts_with(kAtbMagic)) {
    return Status::Unsupported(source, "ATB tensor .bin (text header '$Version=') is not a kernel dump; not supported");
  }
  ByteCursor c(file, source);
  if (file_size < 8) {
    return Status::InvalidInput(source, fmt::format("file of {} bytes is too short for the 8-byte header length",
                                                    file_size));
  }
  const uint64_t header_length = c.LittleEndian<uint64_t>().value();
  if (file_size >= 12 && LoadLittleEndian<uint32_t>(file.data() + 8) == kNanoMagic) {
    return Status::Unsupported(source, "nano dump (TLV header, magic 0x5A5A5A5A at offset 8) is not supported");
  }
  if (header_length == 0 || header_length > file_size - 8) {
    return Status::InvalidInput(source, fmt::format("header length {} at offset 0 does not fit: {} bytes follow it",
                                                    header_length, file_size - 8));
  }
  const uint64_t header_end = 8 + header_length;
  Header header;
  MSP_RETURN_IF_ERROR(ParseHeader(c, header_end, &header));

  BinFile out;
  out.path = source;
  out.version = std::move(header.version);
  out.dump_time = header.dump_time;
  out.op_name = std::move(header.op_name);
  out.data_offset = header_end;
  // Data section order: inputs, outputs, buffers, workspaces (§1.1), whatever the header order.
  uint64_t offset = header_end;
  bool past_end = false;
  std::vector<std::string> incomplete;
  for (const auto* list : {&header.inputs, &header.outputs, &header.buffers, &header.spaces}) {
    for (size_t i = 0; i < list->size(); ++i) {
      const RawSlot& raw = (*list)[i];
      MSP_ASSIGN_OR_RETURN(BinSlot slot, ValidateSlot(raw, static_cast<uint32_t>(i), offset, source));
      if (past_end || raw.size > file_size - offset) {
        past_end = true;
        incomplete.push_back(SlotName(raw.kind, static_cast<uint32_t>(i)));
        offset = file_size;  // the running total only matters for the message below
      } else {
        offset += raw.size;
      }
      out.slots.push_back(std::move(slot));
    }
  }
  if (past_end) {
    uint64_t declared = header_end;
    for (const BinSlot& s : out.slots) declared = declared > ~s.size ? ~uint64_t{0} : declared + s.size;
    return Status::InvalidInput(source, fmt::format("truncated: the header declares data up to offset {}, the file "
                                                    "has {} bytes; incomplete: {}", declared, file_size,
                                                    fmt::join(incomplete, ", ")));
  }
  out.trailing_bytes = file_size - offset;
  return out;
}

Result<BinFile> ReadBinFile(const std::string& path) {
  MSP_ASSIGN_OR_RETURN(auto file, MappedFile::Open(path));
  MSP_ASSIGN_OR_RETURN(MappedRegion region, file->MapAll());  // virtual only: the header is read
  return ParseBin(region.bytes(), path);
}

}  // namespace msprobe
