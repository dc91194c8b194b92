#include "msprobe/dump/text/xml_scanner.h"

#include <fmt/format.h>

#include <charconv>
#include <cstring>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "msprobe/dump/text/utf8.h"

namespace msprobe {
namespace {

std::string_view LocalName(std::string_view name) {
  const size_t colon = name.rfind(':');
  return colon == std::string_view::npos ? name : name.substr(colon + 1);
}

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// The first '>', '"' or '\'' in [p, end), or end. Tags are short but numerous: 16 bytes per step.
const char* FindTagStop(const char* p, const char* end) {
#ifdef __SSE2__
  const __m128i gt = _mm_set1_epi8('>'), dq = _mm_set1_epi8('"'), sq = _mm_set1_epi8('\'');
  while (end - p >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const int mask = _mm_movemask_epi8(
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, gt), _mm_cmpeq_epi8(v, dq)), _mm_cmpeq_epi8(v, sq)));
    if (mask != 0) return p + __builtin_ctz(static_cast<unsigned>(mask));
    p += 16;
  }
#endif
  while (p < end && *p != '>' && *p != '"' && *p != '\'') ++p;
  return p;
}

// The end of a tag starting at `from` (just after '<'), skipping '>' inside quoted attribute values.
size_t TagEnd(std::string_view buf, size_t from) {
  const char* p = buf.data() + from;
  const char* const end = buf.data() + buf.size();
  for (;;) {
    p = FindTagStop(p, end);
    if (p == end) return std::string_view::npos;
    if (*p == '>') return static_cast<size_t>(p - buf.data());
    const void* close = std::memchr(p + 1, *p, static_cast<size_t>(end - p - 1));
    if (close == nullptr) return std::string_view::npos;
    p = static_cast<const char*>(close) + 1;
  }
}

// Field by field: assigning a whole temporary XmlToken made g++ store bytes and reload them as
// 16-byte words, a store-forwarding stall on every token.
void ResetToken(XmlToken* token, XmlToken::Kind kind) {
  token->kind = kind;
  token->name = {};
  token->attrs = {};
  token->text = {};
  token->cdata = false;
}

XmlScan Unfinished(bool final, const char* what, const std::string& source, uint64_t offset, Status* error) {
  if (!final) return XmlScan::kNeedMore;
  *error = Status::InvalidInput(source, fmt::format("{} at offset {} is not closed before the end", what, offset));
  return XmlScan::kError;
}

}  // namespace

XmlScan ScanXmlToken(std::string_view buf, size_t* pos, bool final, const std::string& source, uint64_t base,
                     XmlToken* token, Status* error) {
  // Declarations and comments are skipped in this loop, not by recursion. *pos moves only past
  // whole tokens, so kNeedMore leaves it at the start of the unfinished one.
  size_t start = *pos;
  for (;;) {
    if (start >= buf.size()) {  // no more tokens (or wait for more input)
      *pos = start;
      return XmlScan::kNeedMore;
    }
    if (buf[start] != '<') {
      const void* lt = std::memchr(buf.data() + start, '<', buf.size() - start);
      if (lt == nullptr && !final) {
        *pos = start;
        return XmlScan::kNeedMore;
      }
      const size_t end = lt == nullptr ? buf.size() : static_cast<size_t>(static_cast<const char*>(lt) - buf.data());
      ResetToken(token, XmlToken::Kind::kText);
      token->text = buf.substr(start, end - start);
      *pos = end;
      return XmlScan::kToken;
    }
    const std::string_view rest = buf.substr(start);
    if (rest.size() < 2) {
      *pos = start;
      return Unfinished(final, "tag", source, base + start, error);
    }
    if (rest[1] == '?') {  // processing instruction or XML declaration
      const size_t end = rest.find("?>");
      if (end == std::string_view::npos) {
        *pos = start;
        return Unfinished(final, "processing instruction", source, base + start, error);
      }
      start += end + 2;
      continue;
    }
    if (rest[1] == '!') {
      if (rest.size() < 9 && !final) {
        *pos = start;
        return XmlScan::kNeedMore;
      }
      if (rest.substr(0, 4) == "<!--") {
        const size_t end = rest.find("-->", 4);
        if (end == std::string_view::npos) {
          *pos = start;
          return Unfinished(final, "comment", source, base + start, error);
        }
        start += end + 3;
        continue;
      }
      if (rest.substr(0, 9) == "<![CDATA[") {
        const size_t end = rest.find("]]>", 9);
        if (end == std::string_view::npos) {
          *pos = start;
          return Unfinished(final, "CDATA section", source, base + start, error);
        }
        ResetToken(token, XmlToken::Kind::kText);
        token->text = rest.substr(9, end - 9);
        token->cdata = true;
        *pos = start + end + 3;
        return XmlScan::kToken;
      }
      *pos = start;
      *error = Status::Unsupported(source, fmt::format("document type declaration at offset {} is not supported in an "
                                                       "xlsx part", base + start));
      return XmlScan::kError;
    }
    const size_t gt = TagEnd(buf, start + 1);
    if (gt == std::string_view::npos) {
      *pos = start;
      return Unfinished(final, "tag", source, base + start, error);
    }
    std::string_view inner = buf.substr(start + 1, gt - start - 1);
    if (!inner.empty() && inner[0] == '/') {
      ResetToken(token, XmlToken::Kind::kEnd);
      inner.remove_prefix(1);
      while (!inner.empty() && IsSpace(inner.back())) inner.remove_suffix(1);
      token->name = LocalName(inner);
    } else {
      ResetToken(token, XmlToken::Kind::kStart);
      if (!inner.empty() && inner.back() == '/') {
        token->kind = XmlToken::Kind::kEmpty;
        inner.remove_suffix(1);
      }
      size_t name_end = 0;
      while (name_end < inner.size() && !IsSpace(inner[name_end])) ++name_end;
      token->name = LocalName(inner.substr(0, name_end));
      token->attrs = inner.substr(name_end);
    }
    if (token->name.empty()) {
      *pos = start;
      *error = Status::InvalidInput(source, fmt::format("tag without a name at offset {}", base + start));
      return XmlScan::kError;
    }
    *pos = gt + 1;
    return XmlScan::kToken;
  }
}

Result<std::optional<XmlToken>> NextXmlToken(std::string_view buf, size_t* pos, bool final,
                                             const std::string& source, uint64_t base) {
  XmlToken token;
  Status error;
  switch (ScanXmlToken(buf, pos, final, source, base, &token, &error)) {
    case XmlScan::kToken: return std::optional<XmlToken>(token);
    case XmlScan::kNeedMore: return std::optional<XmlToken>();
    case XmlScan::kError: return error;
  }
  return std::optional<XmlToken>();
}

namespace {

// One attribute of `attrs` from *i: its name and raw value; false at the end or at a fault.
bool NextAttr(std::string_view attrs, size_t* i, std::string_view* name, std::string_view* value) {
  size_t k = *i;
  while (k < attrs.size() && IsSpace(attrs[k])) ++k;
  if (k >= attrs.size()) return false;
  const size_t name_start = k;
  while (k < attrs.size() && attrs[k] != '=' && !IsSpace(attrs[k])) ++k;
  *name = attrs.substr(name_start, k - name_start);
  while (k < attrs.size() && IsSpace(attrs[k])) ++k;
  if (k >= attrs.size() || attrs[k] != '=') return false;
  ++k;
  while (k < attrs.size() && IsSpace(attrs[k])) ++k;
  if (k >= attrs.size() || (attrs[k] != '"' && attrs[k] != '\'')) return false;
  const char quote = attrs[k++];
  const size_t value_end = attrs.find(quote, k);
  if (value_end == std::string_view::npos) return false;
  *value = attrs.substr(k, value_end - k);
  *i = value_end + 1;
  return true;
}

}  // namespace

std::optional<std::string_view> XmlAttr(std::string_view attrs, std::string_view name) {
  size_t i = 0;
  std::string_view attr_name, value;
  while (NextAttr(attrs, &i, &attr_name, &value)) {
    if (LocalName(attr_name) == name) return value;
  }
  return std::nullopt;
}

void XmlAttrPair(std::string_view attrs, std::string_view name_a, std::string_view name_b,
                 std::optional<std::string_view>* a, std::optional<std::string_view>* b) {
  a->reset();
  b->reset();
  size_t i = 0;
  std::string_view attr_name, value;
  while ((!*a || !*b) && NextAttr(attrs, &i, &attr_name, &value)) {
    const std::string_view local = LocalName(attr_name);
    if (!*a && local == name_a) *a = value;
    if (!*b && local == name_b) *b = value;
  }
}

Status AppendXmlText(std::string_view raw, std::string* out, const std::string& source) {
  size_t i = 0;
  while (i < raw.size()) {
    const size_t amp = raw.find('&', i);
    if (amp == std::string_view::npos) {
      out->append(raw.substr(i));
      break;
    }
    out->append(raw.substr(i, amp - i));
    const size_t semi = raw.find(';', amp);
    if (semi == std::string_view::npos || semi - amp > 12) {
      return Status::InvalidInput(source, fmt::format("unterminated entity reference '{}'",
                                                      raw.substr(amp, std::min<size_t>(12, raw.size() - amp))));
    }
    const std::string_view entity = raw.substr(amp + 1, semi - amp - 1);
    if (entity == "lt") {
      *out += '<';
    } else if (entity == "gt") {
      *out += '>';
    } else if (entity == "amp") {
      *out += '&';
    } else if (entity == "quot") {
      *out += '"';
    } else if (entity == "apos") {
      *out += '\'';
    } else if (entity.size() >= 2 && entity[0] == '#') {
      const bool hex = entity[1] == 'x' || entity[1] == 'X';
      const std::string_view digits = entity.substr(hex ? 2 : 1);
      uint32_t cp = 0;
      const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), cp, hex ? 16 : 10);
      if (ec != std::errc() || end != digits.data() + digits.size() || digits.empty() || cp > 0x10FFFF ||
          (cp >= 0xD800 && cp <= 0xDFFF)) {
        return Status::InvalidInput(source, fmt::format("bad character reference '&{};'", entity));
      }
      AppendUtf8(cp, out);
    } else {
      return Status::InvalidInput(source, fmt::format("unknown entity '&{};'", entity));
    }
    i = semi + 1;
  }
  return Status::Ok();
}

}  // namespace msprobe
