#include "msprobe/dump/util/coding.h"

#include <limits>
#include <stdexcept>
#include <utility>

namespace msprobe {
namespace {

uint64_t ZigZag(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }
int64_t UnZigZag(uint64_t u) { return static_cast<int64_t>(u >> 1) ^ -static_cast<int64_t>(u & 1); }

}  // namespace

bool Decoder::FailAt(size_t offset, std::string_view what) {
  if (error_.empty()) error_ = "at offset " + std::to_string(offset) + ", " + std::string(what);
  at_ = end_;
  return false;
}

Status Decoder::status() const {
  return ok() ? Status::Ok() : Status::InvalidInput(std::string(source_), error_);
}

void PutVarint32(std::string* dst, uint32_t value) { PutVarint64(dst, value); }

void PutSignedVarint32(std::string* dst, int32_t value) { PutVarint64(dst, ZigZag(value)); }
void PutSignedVarint64(std::string* dst, int64_t value) { PutVarint64(dst, ZigZag(value)); }

void PutStatus(std::string* dst, const Status& status) {
  PutEnum(dst, status.code());
  PutString(dst, status.source());
  PutString(dst, status.message());
}

bool GetVarint64Slow(Decoder* in, uint64_t* value) {
  const auto* p = reinterpret_cast<const uint8_t*>(in->data());
  const size_t size = in->size();
  uint64_t v = 0;
  for (size_t i = 0; i < size && i < 10; ++i) {
    v |= static_cast<uint64_t>(p[i] & 0x7f) << (7 * i);
    if (p[i] < 0x80) {
      in->Skip(i + 1);
      *value = v;
      return true;
    }
  }
  return in->Fail(size < 10 ? "truncated: a varint" : "a varint longer than 10 bytes");
}

bool GetVarint32(Decoder* in, uint32_t* value) {
  const size_t at = in->offset();
  uint64_t v = 0;
  if (!GetVarint64(in, &v)) return false;
  if (v > std::numeric_limits<uint32_t>::max()) return in->FailAt(at, "a varint over 32 bits");
  *value = static_cast<uint32_t>(v);
  return true;
}

bool GetSignedVarint64(Decoder* in, int64_t* value) {
  uint64_t u = 0;
  if (!GetVarint64(in, &u)) return false;
  *value = UnZigZag(u);
  return true;
}

bool GetSignedVarint32(Decoder* in, int32_t* value) {
  const size_t at = in->offset();
  int64_t v = 0;
  if (!GetSignedVarint64(in, &v)) return false;
  if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) {
    return in->FailAt(at, "a signed varint over 32 bits");
  }
  *value = static_cast<int32_t>(v);
  return true;
}

bool GetBool(Decoder* in, bool* value) {
  if (in->size() < 1) return in->Fail("truncated: a bool");
  const char b = *in->data();
  if (b != 0 && b != 1) return in->Fail("a bool of " + std::to_string(static_cast<uint8_t>(b)));
  in->Skip(1);
  *value = b == 1;
  return true;
}

bool GetCount(Decoder* in, uint64_t* count) {
  const size_t at = in->offset();
  uint64_t n = 0;
  if (!GetVarint64(in, &n)) return false;
  if (n > in->size()) {
    return in->FailAt(at, "a count of " + std::to_string(n) + " items, more than the " + std::to_string(in->size()) +
                    " bytes left");
  }
  *count = n;
  return true;
}

bool GetStatus(Decoder* in, Status* status) {
  Code code = Code::kOk;
  std::string source, message;
  if (!GetEnum(in, &code, Code::kInternal) || !GetString(in, &source) || !GetString(in, &message)) return false;
  switch (code) {
    case Code::kOk: *status = Status::Ok(); break;
    case Code::kInvalidInput: *status = Status::InvalidInput(std::move(source), std::move(message)); break;
    case Code::kNotFound: *status = Status::NotFound(std::move(source), std::move(message)); break;
    case Code::kIOError: *status = Status::IOError(std::move(source), std::move(message)); break;
    case Code::kUnsupported: *status = Status::Unsupported(std::move(source), std::move(message)); break;
    case Code::kInternal: *status = Status::Internal(std::move(source), std::move(message)); break;
  }
  return true;
}

void DecodeMessage(std::string_view bytes, std::string_view source, const std::function<bool(Decoder*)>& get) {
  Decoder in(bytes, source);
  if (get(&in) && in.size() != 0) in.Fail(std::to_string(in.size()) + " bytes left over");
  if (!in.ok()) throw std::logic_error("a message that does not decode: " + in.status().ToString());
}

std::string PackStrings(const std::vector<std::string>& strings) {
  std::string out;
  PutVector(&out, strings, PutString);
  return out;
}

std::vector<std::string> UnpackStrings(std::string_view bytes) {
  std::vector<std::string> strings;
  DecodeMessage(bytes, "a list of messages", [&](Decoder* in) { return GetVector(in, &strings, GetString); });
  return strings;
}

std::string EncodeStatus(const Status& status) {
  std::string out;
  PutStatus(&out, status);
  return out;
}

Status DecodeStatus(std::string_view bytes) {
  Status status;
  DecodeMessage(bytes, "a status", [&](Decoder* in) { return GetStatus(in, &status); });
  return status;
}

}  // namespace msprobe
