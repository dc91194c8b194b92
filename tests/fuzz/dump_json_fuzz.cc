// Fuzzes the dump.json/debug.json reader: JSON parsing (with NaN/Infinity) and tensor collection,
// streamed from the bytes and over their parsed document, and the entries outlined, then parsed.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "msprobe/dump/framework/dump_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)msprobe::ReadDumpJsonText(text, "fuzz.json");
  auto doc = msprobe::ParseJsonText(text, "fuzz.json");
  if (doc.ok()) (void)msprobe::ParseDumpJson(*doc, "fuzz.json");
  // The outline of "data" and its spans parsed: when the stream reads the entries, the outline finds
  // as many and they parse.
  std::vector<msprobe::JsonMemberSpan> spans;
  const auto none = [](std::string_view, const msprobe::JsonValue&) { return msprobe::Status::Ok(); };
  size_t streamed = 0;
  const msprobe::Status stream = msprobe::StreamJsonObject(text, "fuzz.json", "data", none,
                                                           [&](std::string_view, const msprobe::JsonValue&) {
                                                             ++streamed;
                                                             return msprobe::Status::Ok();
                                                           });
  const msprobe::Status outline = msprobe::OutlineJsonObject(text, "fuzz.json", "data", none, [&](msprobe::JsonMemberSpan s) {
    spans.push_back(std::move(s));
    return msprobe::Status::Ok();
  });
  const msprobe::Status parsed = msprobe::ParseJsonSpans(text, "fuzz.json", spans, none);
  if (stream.ok() && (!outline.ok() || spans.size() != streamed || !parsed.ok())) __builtin_trap();
  return 0;
}
