// The one codec of the messages our processes send each other (cluster.h), in the manner of LevelDB's
// util/coding.h: a record is a short sequence of Put… calls appending its fields to a string, read back
// by the matching Get… calls in the same order. Integers are varints (signed ones zigzagged), doubles
// their 8 bytes (NaN payloads, -0 and ±inf come back bit for bit), strings their length then any bytes.
//
// Every Get… is bounds-checked: it reads nothing past the end and returns false when its field does not
// decode; the Decoder then keeps the first failure, naming the message and the offset, and has nothing
// left, so every later Get… fails too. Get… returns a bool rather than a Result so that a record of
// twenty fields, decoded for hundreds of thousands of rows, costs no Status per field. Only our own
// processes write these messages: one that does not decode is a bug, and DecodeMessage throws. The
// codec stands alone, below io/'s ByteCursor (which reads files): the Cluster beside it uses it.
#pragma once

#include <bit>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/dump/util/status.h"

namespace msprobe {

// What is left of a message being decoded, and the first failure met in it.
class Decoder {
 public:
  // `source` names the message in errors ("a pair's outcome"); it must outlive the decoder.
  Decoder(std::string_view bytes, std::string_view source)
      : begin_(bytes.data()), at_(bytes.data()), end_(bytes.data() + bytes.size()), source_(source) {}

  const char* data() const { return at_; }
  size_t size() const { return static_cast<size_t>(end_ - at_); }
  size_t offset() const { return static_cast<size_t>(at_ - begin_); }
  void Skip(size_t n) { at_ += n; }  // REQUIRES: n <= size()
  bool ok() const { return error_.empty(); }
  // Records that `what` went wrong at the current offset, or at `offset` (where the field that turned
  // out wrong began); keeps the first failure only, drops what is left, and returns false for the
  // Get… that met it.
  bool Fail(std::string_view what) { return FailAt(offset(), what); }
  bool FailAt(size_t offset, std::string_view what);
  // Ok, or the first failure: InvalidInput from the message's name.
  Status status() const;

 private:
  const char* begin_;
  const char* at_;
  const char* end_;
  std::string_view source_;
  std::string error_;
};

// Put… appends a field to *dst. What a slice's rows are made of (one-byte varints, strings, doubles)
// is written and read inline: a slice crosses with hundreds of thousands of rows.
void PutVarint32(std::string* dst, uint32_t value);
inline void PutVarint64(std::string* dst, uint64_t value) {
  if (value < 0x80) {
    dst->push_back(static_cast<char>(value));
    return;
  }
  char buf[10];
  size_t n = 0;
  for (; value >= 0x80; value >>= 7) buf[n++] = static_cast<char>(value | 0x80);
  buf[n++] = static_cast<char>(value);
  dst->append(buf, n);
}
void PutSignedVarint32(std::string* dst, int32_t value);
void PutSignedVarint64(std::string* dst, int64_t value);  // zigzag: small magnitudes take few bytes
inline void PutBool(std::string* dst, bool value) { dst->push_back(value ? 1 : 0); }
inline void PutDouble(std::string* dst, double value) {  // 8 bytes, little-endian
  const auto bits = std::bit_cast<uint64_t>(value);
  char buf[8];
  for (int i = 0; i < 8; ++i) buf[i] = static_cast<char>(bits >> (8 * i));
  dst->append(buf, 8);
}
inline void PutString(std::string* dst, std::string_view value) {  // length first: any bytes, NUL included
  PutVarint64(dst, value.size());
  dst->append(value);
}
void PutStatus(std::string* dst, const Status& status);  // code, source, message

// Get… reads a field from the front of *in, or fails (false) reading nothing past the end.
[[nodiscard]] bool GetVarint32(Decoder* in, uint32_t* value);  // fails on a value over 32 bits
[[nodiscard]] bool GetVarint64Slow(Decoder* in, uint64_t* value);  // GetVarint64 past its one-byte case
[[nodiscard]] inline bool GetVarint64(Decoder* in, uint64_t* value) {  // at most 10 bytes
  if (in->size() == 0 || static_cast<uint8_t>(*in->data()) >= 0x80) return GetVarint64Slow(in, value);
  *value = static_cast<uint8_t>(*in->data());
  in->Skip(1);
  return true;
}
[[nodiscard]] bool GetSignedVarint32(Decoder* in, int32_t* value);
[[nodiscard]] bool GetSignedVarint64(Decoder* in, int64_t* value);
[[nodiscard]] bool GetBool(Decoder* in, bool* value);  // 0 or 1
[[nodiscard]] inline bool GetDouble(Decoder* in, double* value) {
  if (in->size() < 8) return in->Fail("truncated: a double of 8 bytes, " + std::to_string(in->size()) + " left");
  const auto* p = reinterpret_cast<const uint8_t*>(in->data());
  uint64_t bits = 0;
  for (int i = 0; i < 8; ++i) bits |= static_cast<uint64_t>(p[i]) << (8 * i);
  in->Skip(8);
  *value = std::bit_cast<double>(bits);
  return true;
}
[[nodiscard]] inline bool GetString(Decoder* in, std::string* value) {
  uint64_t n = 0;
  if (!GetVarint64(in, &n)) return false;
  if (n > in->size()) {
    return in->Fail("truncated: a string of " + std::to_string(n) + " bytes, " + std::to_string(in->size()) + " left");
  }
  value->assign(in->data(), n);
  in->Skip(n);
  return true;
}
[[nodiscard]] bool GetStatus(Decoder* in, Status* status);
// A number of items that follow, each taking a byte at least: no more than the bytes left, so that a
// malformed count cannot make a reader allocate more than the message could hold.
[[nodiscard]] bool GetCount(Decoder* in, uint64_t* count);

// An enum as its number; GetEnum fails on a number past `last`.
template <class E>
void PutEnum(std::string* dst, E value) {
  PutVarint64(dst, static_cast<uint64_t>(value));
}
template <class E>
[[nodiscard]] bool GetEnum(Decoder* in, E* value, E last) {
  const size_t at = in->offset();
  uint64_t v = 0;
  if (!GetVarint64(in, &v)) return false;
  if (v > static_cast<uint64_t>(last)) return in->FailAt(at, "an enum value " + std::to_string(v) + " out of range");
  *value = static_cast<E>(v);
  return true;
}

// A vector as its size, then each item by `put`; read back by `get` (a Get… of one item).
template <class T, class Put>
void PutVector(std::string* dst, const std::vector<T>& items, Put put) {
  PutVarint64(dst, items.size());
  for (const T& item : items) put(dst, item);
}
template <class T, class Get>
[[nodiscard]] bool GetVector(Decoder* in, std::vector<T>* items, Get get) {
  uint64_t n = 0;
  if (!GetCount(in, &n)) return false;
  items->resize(n);
  for (T& item : *items) {
    if (!get(in, &item)) return false;
  }
  return true;
}

// An optional as a bool, then its value.
template <class T, class Put>
void PutOptional(std::string* dst, const std::optional<T>& value, Put put) {
  PutBool(dst, value.has_value());
  if (value) put(dst, *value);
}
template <class T, class Get>
[[nodiscard]] bool GetOptional(Decoder* in, std::optional<T>* value, Get get) {
  bool has = false;
  if (!GetBool(in, &has)) return false;
  if (!has) {
    value->reset();
    return true;
  }
  return get(in, &value->emplace());
}

// Decodes the whole of `bytes` with `get`, which Get…s the message's fields and says whether they
// decoded. Throws std::logic_error naming `source` and the offset when they did not, or when bytes are
// left over: messages come from our own processes, so one that does not decode is a bug.
void DecodeMessage(std::string_view bytes, std::string_view source, const std::function<bool(Decoder*)>& get);

// Messages of every program: a list of byte strings (each its own message), and a Status.
std::string PackStrings(const std::vector<std::string>& strings);
std::vector<std::string> UnpackStrings(std::string_view bytes);
std::string EncodeStatus(const Status& status);
Status DecodeStatus(std::string_view bytes);

}  // namespace msprobe
