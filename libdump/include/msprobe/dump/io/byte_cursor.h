// A bounds-checked, non-owning reader over bytes: the only way parsers touch file bytes. Every read
// checks what is left first and every error names the source and the offset.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "msprobe/dump/util/status.h"

namespace msprobe {

using Bytes = std::span<const std::byte>;

inline Bytes AsBytes(std::string_view s) {
  return {reinterpret_cast<const std::byte*>(s.data()), s.size()};
}
inline std::string_view AsChars(Bytes b) {
  return {reinterpret_cast<const char*>(b.data()), b.size()};
}

// Loads a T stored little-endian at p (unaligned safe).
template <class T>
T LoadLittleEndian(const std::byte* p) {
  static_assert(std::is_trivially_copyable_v<T>);
  T v;
  std::memcpy(&v, p, sizeof(T));
  if constexpr (std::endian::native == std::endian::big && sizeof(T) > 1) {
    auto* b = reinterpret_cast<std::byte*>(&v);
    for (size_t i = 0; i < sizeof(T) / 2; ++i) std::swap(b[i], b[sizeof(T) - 1 - i]);
  }
  return v;
}

class ByteCursor {
 public:
  ByteCursor(Bytes bytes, std::string source) : bytes_(bytes), source_(std::move(source)) {}

  uint64_t Offset() const { return pos_; }
  uint64_t Remaining() const { return bytes_.size() - pos_; }
  bool AtEnd() const { return pos_ == bytes_.size(); }
  const std::string& source() const { return source_; }

  Result<Bytes> Take(uint64_t n) {
    if (n > Remaining()) return Truncated(n);
    Bytes out = bytes_.subspan(pos_, n);
    pos_ += n;
    return out;
  }
  Status Skip(uint64_t n) {
    if (n > Remaining()) return Truncated(n);
    pos_ += n;
    return Status::Ok();
  }
  Status Seek(uint64_t offset) {
    if (offset > bytes_.size()) {
      return Error("seek to offset " + std::to_string(offset) + " past the end (" +
                   std::to_string(bytes_.size()) + " bytes)");
    }
    pos_ = offset;
    return Status::Ok();
  }
  template <class T>
  Result<T> LittleEndian() {
    if (sizeof(T) > Remaining()) return Truncated(sizeof(T));
    T v = LoadLittleEndian<T>(bytes_.data() + pos_);
    pos_ += sizeof(T);
    return v;
  }
  Result<uint8_t> U8() { return LittleEndian<uint8_t>(); }
  // Protobuf base-128 varint: at most 10 bytes.
  Result<uint64_t> Varint() {
    uint64_t value = 0;
    for (int shift = 0; shift < 70; shift += 7) {
      if (AtEnd()) return Truncated(1);
      const auto b = static_cast<uint8_t>(bytes_[pos_++]);
      value |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return value;
    }
    return Error("varint longer than 10 bytes at offset " + std::to_string(pos_));
  }
  // Reads up to and excluding `delim`, consuming it.
  Result<std::string_view> Until(char delim) {
    const std::string_view rest = AsChars(bytes_.subspan(pos_));
    const size_t at = rest.find(delim);
    if (at == std::string_view::npos) {
      return Error(std::string("missing '") + (delim == '\n' ? "\\n" : std::string(1, delim)) +
                   "' after offset " + std::to_string(pos_));
    }
    pos_ += at + 1;
    return rest.substr(0, at);
  }
  Status Error(std::string message) const { return Status::InvalidInput(source_, std::move(message)); }

 private:
  Status Truncated(uint64_t wanted) const {
    return Error("truncated: needs " + std::to_string(wanted) + " bytes at offset " +
                 std::to_string(pos_) + ", " + std::to_string(Remaining()) + " left");
  }
  Bytes bytes_;
  std::string source_;
  uint64_t pos_ = 0;
};

}  // namespace msprobe
