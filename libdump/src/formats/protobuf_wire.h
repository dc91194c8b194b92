// A minimal protobuf wire-format reader over ByteCursor (docs/kernel_dump.md §1.2): keys, varints,
// fixed32/64 and length-delimited fields, with every length checked against the enclosing message.
// Offsets stay absolute because nested messages are read from the same cursor up to their end.
#pragma once

#include <cstdint>
#include <string_view>

#include "msprobe/dump/io/byte_cursor.h"
#include "msprobe/dump/util/status.h"

namespace msprobe::protobuf_wire {

enum class WireType : uint8_t { kVarint = 0, kI64 = 1, kLen = 2, kI32 = 5 };

struct Field {
  uint32_t number = 0;
  WireType wire = WireType::kVarint;
  uint64_t key_offset = 0;  // where the key starts, for messages
  uint64_t value = 0;       // varint or fixed value; for kLen the payload length
  uint64_t end = 0;         // kLen: offset just past the payload (the cursor is left at its start)
};

// Reads the next key and, except for kLen, its value. A kLen payload must end by `limit`; the cursor
// is left at the payload's start so the caller can parse it as a message or call SkipPayload.
// Group wire types (3, 4), field number 0 and anything crossing `limit` are InvalidInput.
Result<Field> ReadField(ByteCursor& cursor, uint64_t limit);

// Moves past a kLen payload (no-op for the other wire types, already consumed by ReadField).
Status SkipPayload(ByteCursor& cursor, const Field& field);

// The payload of a kLen field as bytes (consumes it).
Result<std::string_view> ReadString(ByteCursor& cursor, const Field& field);

// Checks that a known field arrived with the wire type its schema gives; `what` names it.
Status ExpectWire(const ByteCursor& cursor, const Field& field, WireType wire, std::string_view what);

}  // namespace msprobe::protobuf_wire
