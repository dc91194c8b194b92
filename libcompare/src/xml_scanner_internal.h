// A minimal, resumable XML tokenizer for the parts of an xlsx (workbook, relationships, shared
// strings, worksheets): start/end/empty tags and text, nothing else. It never recurses and never
// expands entities beyond the five predefined ones and character references; a DOCTYPE (the only
// way to declare more) is refused. Input can arrive in chunks: Next() reports when the buffer ends
// inside a token, and the caller appends more and calls again from the same position.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "msprobe/dump/status.h"

namespace msprobe::compare::internal {

struct XmlToken {
  enum class Kind : uint8_t { kStart, kEnd, kEmpty, kText };
  Kind kind = Kind::kText;
  std::string_view name;   // local name (namespace prefix dropped); empty for text
  std::string_view attrs;  // raw attribute text of a start or empty tag
  std::string_view text;   // raw text (entities not yet decoded); CDATA content is in `cdata`
  bool cdata = false;
};

// The next token of `buf` at *pos, advancing *pos past it; nullopt when the buffer holds no more
// tokens, or ends inside one while `final` is false (append more input and call again). With
// `final` true an unfinished token is an error. `source` names the part in messages; `base` is the offset of buf[0] in it.
Result<std::optional<XmlToken>> NextXmlToken(std::string_view buf, size_t* pos, bool final,
                                             const std::string& source, uint64_t base);

// The raw value of the attribute whose local name is `name` (a prefix such as "r:" is ignored), or
// nullopt. Malformed attribute text gives nullopt for the names after the fault.
std::optional<std::string_view> XmlAttr(std::string_view attrs, std::string_view name);

// Appends `raw` to *out with &lt; &gt; &amp; &quot; &apos; and &#N; / &#xH; decoded.
Status AppendXmlText(std::string_view raw, std::string* out, const std::string& source);

}  // namespace msprobe::compare::internal
