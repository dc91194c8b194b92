// A minimal, resumable XML tokenizer for the parts of an xlsx (workbook, relationships, shared
// strings, worksheets): start/end/empty tags and text, nothing else. It never recurses and never
// expands entities beyond the five predefined ones and character references; a DOCTYPE (the only
// way to declare more) is refused. Input can arrive in chunks: a scan reports when the buffer ends
// inside a token, and the caller appends more and calls again from the same position. Tokens are
// views of the caller's buffer: nothing is allocated per token.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "msprobe/dump/util/status.h"

namespace msprobe {

struct XmlToken {
  enum class Kind : uint8_t { kStart, kEnd, kEmpty, kText };
  Kind kind = Kind::kText;
  std::string_view name;   // local name (namespace prefix dropped); empty for text
  std::string_view attrs;  // raw attribute text of a start or empty tag
  std::string_view text;   // raw text (entities not yet decoded); CDATA content is in `cdata`
  bool cdata = false;
};

enum class XmlScan : uint8_t {
  kToken,     // *token holds the next token and *pos is past it
  kNeedMore,  // no complete token left in the buffer (or none at all); *pos is unchanged
  kError,     // *error says why
};

// The hot form of NextXmlToken for worksheets (hundreds of millions of tokens): the outcome as an
// enum, the Status built only on error. `final`: no more input follows, so an unfinished token is
// an error. `source` names the part in messages; `base` is the offset of buf[0] in it.
XmlScan ScanXmlToken(std::string_view buf, size_t* pos, bool final, const std::string& source, uint64_t base,
                     XmlToken* token, Status* error);

// The next token of `buf` at *pos, advancing *pos past it; nullopt when the buffer holds no more
// tokens, or ends inside one while `final` is false (append more input and call again). With
// `final` true an unfinished token is an error.
Result<std::optional<XmlToken>> NextXmlToken(std::string_view buf, size_t* pos, bool final,
                                             const std::string& source, uint64_t base);

// The raw value of the attribute whose local name is `name` (a prefix such as "r:" is ignored), or
// nullopt. Malformed attribute text gives nullopt for the names after the fault.
std::optional<std::string_view> XmlAttr(std::string_view attrs, std::string_view name);

// XmlAttr for two names in one pass over `attrs` (a cell's r and t): the same answers as two calls.
void XmlAttrPair(std::string_view attrs, std::string_view name_a, std::string_view name_b,
                 std::optional<std::string_view>* a, std::optional<std::string_view>* b);

// Appends `raw` to *out with &lt; &gt; &amp; &quot; &apos; and &#N; / &#xH; decoded.
Status AppendXmlText(std::string_view raw, std::string* out, const std::string& source);

}  // namespace msprobe
