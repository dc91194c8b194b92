#include "msprobe/dump/text/python_json.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <fmt/format.h>

#include "msprobe/dump/text/python_format.h"

namespace msprobe {
namespace {

// Printable ASCII other than '"' and '\\' goes into a JSON string as it is (json's ' ' to '~': DEL
// is escaped); looked up, not tested.
bool IsPlain(char c) {
  static constexpr auto kPlain = [] {
    std::array<bool, 256> plain{};
    for (int ch = ' '; ch <= '~'; ++ch) plain[ch] = ch != '"' && ch != '\\';
    return plain;
  }();
  return kPlain[static_cast<unsigned char>(c)];
}

// Copies the run of plain bytes that starts `s` to `out`, which has room for all of s; its length.
// With SSE2, sixteen bytes at a time: a signed compare below ' ' also catches every byte from 0x80 up. Bytes
// past the run may be copied too (the caller overwrites them).
size_t CopyPlainRun(std::string_view s, char* out) {
  size_t i = 0;
#if defined(__SSE2__)
  const __m128i space = _mm_set1_epi8(' '), quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'),
                del = _mm_set1_epi8(0x7F);
  for (; i + 16 <= s.size(); i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + i));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), v);
    const __m128i special = _mm_or_si128(_mm_or_si128(_mm_cmplt_epi8(v, space), _mm_cmpeq_epi8(v, quote)),
                                         _mm_or_si128(_mm_cmpeq_epi8(v, backslash), _mm_cmpeq_epi8(v, del)));
    if (const int mask = _mm_movemask_epi8(special); mask != 0) return i + static_cast<size_t>(__builtin_ctz(mask));
  }
#endif  // elsewhere the byte loop below does it all
  for (; i < s.size() && IsPlain(s[i]); ++i) out[i] = s[i];
  return i;
}

// Decodes one UTF-8 code point at s[*i]; a malformed byte comes back as itself.
uint32_t NextCodePoint(std::string_view s, size_t* i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(*i);
  const size_t extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
  if (extra == 0 || *i + extra >= s.size()) {
    ++*i;
    return c;
  }
  uint32_t cp = c & (0x3F >> extra);
  for (size_t k = 1; k <= extra; ++k) {
    const unsigned char cont = byte(*i + k);
    if ((cont & 0xC0) != 0x80) {
      ++*i;
      return c;
    }
    cp = (cp << 6) | (cont & 0x3F);
  }
  *i += extra + 1;
  return cp;
}

// json.dumps's ensure_ascii escaping takes at most 6 bytes per byte ("\u00XX").
constexpr size_t kEscapedRoom = 6;

// json.dumps(s) with ensure_ascii written at `p`, which has room for kEscapedRoom bytes a byte of s
// and the two quotes; returns the end.
char* WriteJsonString(std::string_view s, char* p) {
  const auto hex4 = [&p](uint32_t v) {
    static constexpr char kDigits[] = "0123456789abcdef";
    *p++ = '\\';
    *p++ = 'u';
    for (int shift = 12; shift >= 0; shift -= 4) *p++ = kDigits[(v >> shift) & 0xF];
  };
  *p++ = '"';
  for (size_t i = 0; i < s.size();) {
    if (const size_t run = CopyPlainRun(s.substr(i), p); run > 0) {
      p += run;
      i += run;
      continue;
    }
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      ++i;
      const char* escape = nullptr;
      switch (c) {
        case '"': escape = "\\\""; break;
        case '\\': escape = "\\\\"; break;
        case '\n': escape = "\\n"; break;
        case '\r': escape = "\\r"; break;
        case '\t': escape = "\\t"; break;
        case '\b': escape = "\\b"; break;
        case '\f': escape = "\\f"; break;
        default: hex4(c); continue;
      }
      *p++ = escape[0];
      *p++ = escape[1];
      continue;
    }
    const uint32_t cp = NextCodePoint(s, &i);
    if (cp >= 0x10000) {
      const uint32_t v = cp - 0x10000;
      hex4(0xD800 + (v >> 10));
      hex4(0xDC00 + (v & 0x3FF));
    } else {
      hex4(cp);
    }
  }
  *p++ = '"';
  return p;
}

}  // namespace

void PyJsonWriter::Grow(size_t n) {
  Reserve(std::max(capacity_ * 2, len_ + n + 4096) - len_);
}

void PyJsonWriter::Reserve(size_t bytes) {
  if (capacity_ - len_ >= bytes) return;
  capacity_ = len_ + bytes;
  auto bigger = std::make_unique_for_overwrite<char[]>(capacity_);
  if (len_ > 0) std::memcpy(bigger.get(), buf_.get(), len_);
  buf_ = std::move(bigger);
}

void PyJsonWriter::PutString(std::string_view s) {
  char* const begin = Room(kEscapedRoom * s.size() + 2);
  len_ += static_cast<size_t>(WriteJsonString(s, begin) - begin);
}

void PyJsonWriter::Newline(size_t depth) {
  const size_t spaces = depth * static_cast<size_t>(indent_);
  char* p = Room(spaces + 1);
  *p = '\n';
  std::memset(p + 1, ' ', spaces);
  len_ += spaces + 1;
}

void PyJsonWriter::BeforeValue() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (counts_.empty()) return;
  if (counts_.back()++ > 0) Put(",");
  Newline(counts_.size());
}

void PyJsonWriter::Open(char bracket) {
  BeforeValue();
  Put(std::string_view(&bracket, 1));
  counts_.push_back(0);
}

void PyJsonWriter::Close(char bracket) {
  const size_t children = counts_.back();
  counts_.pop_back();
  if (children > 0) Newline(counts_.size());
  Put(std::string_view(&bracket, 1));
}

PyJsonWriter::EncodedKey PyJsonWriter::EncodeKey(std::string_view key) {
  PyJsonWriter w(0);
  w.PutString(key);
  w.Put(": ");
  return {std::string(w.text())};
}

void PyJsonWriter::Key(std::string_view key) {
  BeforeValue();
  PutString(key);
  Put(": ");
  after_key_ = true;
}

void PyJsonWriter::Key(const EncodedKey& key) {
  BeforeValue();
  Put(key.text);
  after_key_ = true;
}

void PyJsonWriter::String(std::string_view s) {
  BeforeValue();
  PutString(s);
}

void PyJsonWriter::Int(int64_t v) {
  BeforeValue();
  char* p = Room(24);
  len_ += static_cast<size_t>(fmt::format_to(p, "{}", v) - p);
}

void PyJsonWriter::Float(double v) {
  BeforeValue();
  if (std::isnan(v)) {
    Put("NaN");
  } else if (std::isinf(v)) {
    Put(v > 0 ? "Infinity" : "-Infinity");
  } else {
    len_ += AppendPythonFloatRepr(Room(40), v);
  }
}

void PyJsonWriter::Bool(bool v) {
  BeforeValue();
  Put(v ? "true" : "false");
}

void PyJsonWriter::Null() {
  BeforeValue();
  Put("null");
}

void PyJsonWriter::StringList(const std::vector<std::string>& items) {
  BeginArray();
  for (const std::string& item : items) String(item);
  EndArray();
}

void PyJsonWriter::Value(const JsonValue& v) {
  if (v.IsNull()) return Null();
  if (v.IsBool()) return Bool(v.GetBool());
  if (v.IsInt64()) return Int(v.GetInt64());
  if (v.IsUint64()) {  // past int64: Python's int keeps it
    BeforeValue();
    char* p = Room(24);
    len_ += static_cast<size_t>(fmt::format_to(p, "{}", v.GetUint64()) - p);
    return;
  }
  if (v.IsNumber()) return Float(v.GetDouble());
  if (v.IsString()) return String({v.GetString(), v.GetStringLength()});
  if (v.IsArray()) {
    BeginArray();
    for (const JsonValue& item : v.GetArray()) Value(item);
    return EndArray();
  }
  BeginObject();
  const auto members = v.GetObject();
  for (auto m = members.begin(); m != members.end(); ++m) {
    const std::string_view key(m->name.GetString(), m->name.GetStringLength());
    const auto same_key = [&](const auto& other) {
      return std::string_view(other.name.GetString(), other.name.GetStringLength()) == key;
    };
    if (std::any_of(members.begin(), m, same_key)) continue;  // written at its first place
    const JsonValue* last = &m->value;
    for (auto later = m + 1; later != members.end(); ++later) {
      if (same_key(*later)) last = &later->value;
    }
    Key(key);
    Value(*last);
  }
  EndObject();
}

std::string JsonDumpsStrings(const std::vector<std::string>& items) {
  size_t room = 2;
  for (const std::string& s : items) room += kEscapedRoom * s.size() + 4;
  std::string out(room, '\0');
  char* p = out.data();
  *p++ = '[';
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) {
      *p++ = ',';
      *p++ = ' ';
    }
    p = WriteJsonString(items[i], p);
  }
  *p++ = ']';
  out.resize(static_cast<size_t>(p - out.data()));
  return out;
}

}  // namespace msprobe
