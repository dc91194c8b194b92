#include "xml_scanner_internal.h"

#include <fmt/format.h>

#include <charconv>

namespace msprobe::compare::internal {
namespace {

std::string_view LocalName(std::string_view name) {
  const size_t colon = name.rfind(':');
  return colon == std::string_view::npos ? name : name.substr(colon + 1);
}

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    *out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    *out += static_cast<char>(0xC0 | (cp >> 6));
    *out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    *out += static_cast<char>(0xE0 | (cp >> 12));
    *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    *out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    *out += static_cast<char>(0xF0 | (cp >> 18));
    *out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    *out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// The end of a tag starting at `from` (just after '<'), skipping '>' inside quoted attribute values.
size_t TagEnd(std::string_view buf, size_t from) {
  char quote = 0;
  for (size_t i = from; i < buf.size(); ++i) {
    const char c = buf[i];
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '>') {
      return i;
    }
  }
  return std::string_view::npos;
}

}  // namespace

Result<std::optional<XmlToken>> NextXmlToken(std::string_view buf, size_t* pos, bool final,
                                             const std::string& source, uint64_t base) {
  // Declarations and comments are skipped in this loop, not by recursion.
  for (;;) {
    const size_t start = *pos;
    auto unfinished = [&](const char* what) -> Result<std::optional<XmlToken>> {
      if (!final) return std::optional<XmlToken>();
      return Status::InvalidInput(source, fmt::format("{} at offset {} is not closed before the end", what, base + start));
    };
    if (start >= buf.size()) return std::optional<XmlToken>();  // no more tokens (or wait for more input)
    XmlToken token;
    if (buf[start] != '<') {
      const size_t lt = buf.find('<', start);
      if (lt == std::string_view::npos && !final) return std::optional<XmlToken>();
      const size_t end = lt == std::string_view::npos ? buf.size() : lt;
      token.text = buf.substr(start, end - start);
      *pos = end;
      return std::optional<XmlToken>(token);
    }
    const std::string_view rest = buf.substr(start);
    if (rest.size() < 2) return unfinished("tag");
    if (rest[1] == '?') {  // processing instruction or XML declaration
      const size_t end = rest.find("?>");
      if (end == std::string_view::npos) return unfinished("processing instruction");
      *pos = start + end + 2;
      continue;
    }
    if (rest[1] == '!') {
      if (rest.size() < 9 && !final) return std::optional<XmlToken>();
      if (rest.substr(0, 4) == "<!--") {
        const size_t end = rest.find("-->", 4);
        if (end == std::string_view::npos) return unfinished("comment");
        *pos = start + end + 3;
        continue;
      }
      if (rest.substr(0, 9) == "<![CDATA[") {
        const size_t end = rest.find("]]>", 9);
        if (end == std::string_view::npos) return unfinished("CDATA section");
        token.text = rest.substr(9, end - 9);
        token.cdata = true;
        *pos = start + end + 3;
        return std::optional<XmlToken>(token);
      }
      return Status::Unsupported(source, fmt::format("document type declaration at offset {} is not supported in an "
                                                     "xlsx part", base + start));
    }
    const size_t gt = TagEnd(buf, start + 1);
    if (gt == std::string_view::npos) return unfinished("tag");
    std::string_view inner = buf.substr(start + 1, gt - start - 1);
    *pos = gt + 1;
    if (!inner.empty() && inner[0] == '/') {
      token.kind = XmlToken::Kind::kEnd;
      inner.remove_prefix(1);
      while (!inner.empty() && IsSpace(inner.back())) inner.remove_suffix(1);
      token.name = LocalName(inner);
    } else {
      token.kind = XmlToken::Kind::kStart;
      if (!inner.empty() && inner.back() == '/') {
        token.kind = XmlToken::Kind::kEmpty;
        inner.remove_suffix(1);
      }
      size_t name_end = 0;
      while (name_end < inner.size() && !IsSpace(inner[name_end])) ++name_end;
      token.name = LocalName(inner.substr(0, name_end));
      token.attrs = inner.substr(name_end);
    }
    if (token.name.empty()) {
      return Status::InvalidInput(source, fmt::format("tag without a name at offset {}", base + start));
    }
    return std::optional<XmlToken>(token);
  }
}

std::optional<std::string_view> XmlAttr(std::string_view attrs, std::string_view name) {
  size_t i = 0;
  while (i < attrs.size()) {
    while (i < attrs.size() && IsSpace(attrs[i])) ++i;
    const size_t name_start = i;
    while (i < attrs.size() && attrs[i] != '=' && !IsSpace(attrs[i])) ++i;
    const std::string_view attr_name = attrs.substr(name_start, i - name_start);
    while (i < attrs.size() && IsSpace(attrs[i])) ++i;
    if (i >= attrs.size() || attrs[i] != '=') return std::nullopt;
    ++i;
    while (i < attrs.size() && IsSpace(attrs[i])) ++i;
    if (i >= attrs.size() || (attrs[i] != '"' && attrs[i] != '\'')) return std::nullopt;
    const char quote = attrs[i++];
    const size_t value_end = attrs.find(quote, i);
    if (value_end == std::string_view::npos) return std::nullopt;
    if (LocalName(attr_name) == name) return attrs.substr(i, value_end - i);
    i = value_end + 1;
  }
  return std::nullopt;
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

}  // namespace msprobe::compare::internal
