// The bytes our processes send each other, written and read field by field.
#pragma once

#include <bit>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "msprobe/dump/io/byte_cursor.h"

namespace msprobe::compare::internal {

// Integers as varints (signed ones zigzagged), strings with their length first, doubles as their 8
// bytes: what messages between our processes are made of where nlohmann_json's CBOR document is too
// slow (large payloads, hundreds of thousands of rows). A message that does not decode is a bug: the
// reader throws.
class ByteWriter {
 public:
  void U(uint64_t v) {
    while (v >= 0x80) {
      out_.push_back(static_cast<char>(v | 0x80));
      v >>= 7;
    }
    out_.push_back(static_cast<char>(v));
  }
  void I(int64_t v) { U((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63)); }
  void S(std::string_view s) {
    U(s.size());
    out_.append(s);
  }
  void F(double d) {
    const auto bits = std::bit_cast<uint64_t>(d);
    for (int i = 0; i < 8; ++i) out_.push_back(static_cast<char>(bits >> (8 * i)));
  }
  std::string Take() && { return std::move(out_); }

 private:
  std::string out_;
};

class ByteReader {
 public:
  explicit ByteReader(std::string_view bytes) : cursor_(AsBytes(bytes), "cluster message") {}
  uint64_t U() { return Must(cursor_.Varint()); }
  int64_t I() {
    const uint64_t u = U();
    return static_cast<int64_t>(u >> 1) ^ -static_cast<int64_t>(u & 1);
  }
  std::string S() { return std::string(AsChars(Must(cursor_.Take(U())))); }
  double F() { return std::bit_cast<double>(Must(cursor_.LittleEndian<uint64_t>())); }

 private:
  template <class T>
  static T Must(Result<T> r) {
    if (!r.ok()) throw std::runtime_error(r.status().ToString());
    return std::move(*r);
  }
  ByteCursor cursor_;
};

}  // namespace msprobe::compare::internal
