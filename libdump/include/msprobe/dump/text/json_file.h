// Loads a JSON file the way msprobe's files need: the bare tokens NaN, Infinity and -Infinity are
// numbers (docs/formats.md §1.7), key order is kept, and a parse error names the file and byte offset.
// RapidJSON, for the dump.json family; the small documents we own use nlohmann_json (docs/formats.md §10).
#pragma once

#include <rapidjson/document.h>

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/dump/util/status.h"

namespace msprobe {

// RapidJSON's own allocator returns null when malloc fails and RapidJSON then writes through it: a
// crash where a program should say "out of memory". This one throws std::bad_alloc, which every
// program reports as that (exit 4). Every document, value and reader of the project uses it.
struct JsonAllocator {
  static const bool kNeedFree = true;
  void* Malloc(size_t size);
  void* Realloc(void* original, size_t original_size, size_t new_size);
  static void Free(void* ptr) noexcept;
};
using JsonPool = rapidjson::MemoryPoolAllocator<JsonAllocator>;
using JsonDocument = rapidjson::GenericDocument<rapidjson::UTF8<>, JsonPool, JsonAllocator>;
using JsonValue = JsonDocument::ValueType;
using JsonReader = rapidjson::GenericReader<rapidjson::UTF8<>, rapidjson::UTF8<>, JsonAllocator>;

Result<JsonDocument> ParseJsonText(std::string_view text, const std::string& source);
Result<JsonDocument> ReadJsonFile(const std::string& path);

// Small typed accessors that return nullptr / nullopt instead of asserting on the wrong type. Of
// repeated keys, the last counts, as in Python.
const JsonValue* Member(const JsonValue& object, const char* key);
const char* StringMember(const JsonValue& object, const char* key);

}  // namespace msprobe

namespace msprobe {

class MappedRegion;

// Python's json.load gives up (RecursionError) near its default recursion limit of 1000, so msprobe
// cannot read a document nested deeper; refusing one also keeps recursive walks off a deep stack.
constexpr int kMaxJsonDepth = 1000;
// Whether `v` holds no more than `levels` levels of arrays and objects below itself.
bool JsonDepthAtMost(const JsonValue& v, int levels);

using JsonMemberFn = std::function<Status(std::string_view key, const JsonValue& value)>;

// Where StreamJsonObject parses the members of `expand`. kInline: on the caller's thread, between the
// calls. kAhead: on a second core (TBB), a few batches of about 1 MB ahead of the calls, which then
// come one at a time on whichever thread TBB picks. RapidJSON's parse is about half the work of
// flattening a dump.json entry, so kAhead nearly halves that (docs/compare.md §6.1); it costs a
// thread, whose stack and malloc arena take about 100 MB of address space, not of memory.
enum class EntryParsing { kInline, kAhead };

// Streams JSON text whose top level is an object: `on_member` gets each top-level member except
// `expand`, which must be an object: it is announced to `on_member` as an empty object, then its
// members go one by one to `on_entry` (an `expand` that is not an object goes to `on_member` whole).
// Each value is parsed into its own document and dropped after the call, so memory stays at the size
// of one member (kAhead: a few batches) however large the text (a dump.json's "data" reaches hundreds
// of MB). When `text` is the bytes of `mapped`, the pages already parsed are dropped from memory too.
// `source` names the text in errors; the first error in text order is returned. Same parse rules and
// error messages as ReadJsonFile.
Status StreamJsonObject(std::string_view text, const std::string& source, std::string_view expand,
                        const JsonMemberFn& on_member, const JsonMemberFn& on_entry,
                        EntryParsing parsing = EntryParsing::kInline, MappedRegion* mapped = nullptr);

// Where a member of an object sits in its text: its key, and its value's bytes [begin, end).
struct JsonMemberSpan {
  std::string key;
  size_t begin = 0, end = 0;
};
using JsonSpanFn = std::function<Status(JsonMemberSpan span)>;

// StreamJsonObject with the members of `expand` located, not parsed: `on_span` gets each one's key
// and where its value lies, found by following strings and brackets alone, several times faster than
// parsing. Processes that share one file's members (docs/distributed.md §3) find them so. A value's
// own syntax is checked only when ParseJsonSpans parses it.
Status OutlineJsonObject(std::string_view text, const std::string& source, std::string_view expand,
                         const JsonMemberFn& on_member, const JsonSpanFn& on_span);
// Parses the values at `spans` (located in this `text`) one at a time, in the order given, as
// StreamJsonObject parses them; errors name their byte in `text`, and a value that does not end at its
// span's end is one.
Status ParseJsonSpans(std::string_view text, const std::string& source, const std::vector<JsonMemberSpan>& spans,
                      const JsonMemberFn& on_entry);

}  // namespace msprobe
