#include "formats/protobuf_wire.h"

#include <fmt/format.h>

namespace msprobe::protobuf_wire {

Result<Field> ReadField(ByteCursor& cursor, uint64_t limit) {
  Field field;
  field.key_offset = cursor.Offset();
  MSP_ASSIGN_OR_RETURN(uint64_t key, cursor.Varint());
  const uint64_t wire = key & 7;
  const uint64_t number = key >> 3;
  if (number == 0 || number > 0x1fffffff) {
    return cursor.Error(fmt::format("protobuf field number {} at offset {} is invalid", number, field.key_offset));
  }
  field.number = static_cast<uint32_t>(number);
  switch (wire) {
    case 0: {
      field.wire = WireType::kVarint;
      MSP_ASSIGN_OR_RETURN(field.value, cursor.Varint());
      break;
    }
    case 1: {
      field.wire = WireType::kI64;
      MSP_ASSIGN_OR_RETURN(field.value, cursor.LittleEndian<uint64_t>());
      break;
    }
    case 5: {
      field.wire = WireType::kI32;
      MSP_ASSIGN_OR_RETURN(uint32_t v, cursor.LittleEndian<uint32_t>());
      field.value = v;
      break;
    }
    case 2: {
      field.wire = WireType::kLen;
      MSP_ASSIGN_OR_RETURN(field.value, cursor.Varint());
      if (cursor.Offset() > limit || field.value > limit - cursor.Offset()) {
        return cursor.Error(fmt::format("protobuf field {} at offset {} declares {} bytes, past the end of its "
                                        "message at offset {}", number, field.key_offset, field.value, limit));
      }
      field.end = cursor.Offset() + field.value;
      return field;
    }
    default:
      return cursor.Error(fmt::format("protobuf field {} at offset {} has unsupported wire type {}", number,
                                      field.key_offset, wire));
  }
  if (cursor.Offset() > limit) {
    return cursor.Error(fmt::format("protobuf field {} at offset {} runs past the end of its message at offset {}",
                                    number, field.key_offset, limit));
  }
  return field;
}

Status SkipPayload(ByteCursor& cursor, const Field& field) {
  if (field.wire != WireType::kLen) return Status::Ok();
  return cursor.Seek(field.end);
}

Result<std::string_view> ReadString(ByteCursor& cursor, const Field& field) {
  MSP_ASSIGN_OR_RETURN(Bytes bytes, cursor.Take(field.value));
  return AsChars(bytes);
}

Status ExpectWire(const ByteCursor& cursor, const Field& field, WireType wire, std::string_view what) {
  if (field.wire == wire) return Status::Ok();
  return cursor.Error(fmt::format("{} (field {}) at offset {} has wire type {}, expected {}", what, field.number,
                                  field.key_offset, static_cast<int>(field.wire), static_cast<int>(wire)));
}

}  // namespace msprobe::protobuf_wire
