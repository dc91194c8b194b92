#include "msprobe/dump/text/json_file.h"

#include <fmt/format.h>
#include <rapidjson/encodedstream.h>
#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <tbb/parallel_pipeline.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <cstdlib>
#include <memory>
#include <new>
#include <utility>
#include <vector>

#include "msprobe/dump/text/utf8.h"
#include "msprobe/dump/io/mapped_file.h"

namespace msprobe {
namespace {

// RapidJSON hands every number over as text and we convert it: its own full-precision strtod reads
// out of bounds on exponents near INT_MAX (a fuzzer found it), and its fast path can be 1 ulp off the
// exact doubles Python wrote. std::from_chars rounds correctly, like Python's float().
constexpr unsigned kBaseFlags =
    rapidjson::kParseNanAndInfFlag | rapidjson::kParseNumbersAsStringsFlag | rapidjson::kParseIterativeFlag;

bool IsIntegerText(std::string_view text) {
  for (size_t i = text.empty() || text[0] != '-' ? 0 : 1; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
  }
  return true;
}

// Forwards every SAX event to a document, converting numbers from their text.
class ExactNumberHandler {
 public:
  explicit ExactNumberHandler(JsonDocument& doc) : doc_(doc) {}

  bool RawNumber(const char* str, rapidjson::SizeType length, bool /*copy*/) {
    const std::string_view text(str, length);
    if (IsIntegerText(text)) {
      // Integers beyond 64 bits fall through to a double, as RapidJSON and Python's json both keep them.
      if (text[0] == '-') {
        int64_t i = 0;
        if (std::from_chars(text.data(), text.data() + text.size(), i).ec == std::errc()) return doc_.Int64(i);
      } else {
        uint64_t u = 0;
        if (std::from_chars(text.data(), text.data() + text.size(), u).ec == std::errc()) return doc_.Uint64(u);
      }
    }
    double d = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), d);
    if (ec == std::errc::result_out_of_range) {
      d = std::strtod(str, nullptr);  // ±inf or 0 as Python's float() gives; str is NUL-terminated
    } else if (ec != std::errc() || end != text.data() + text.size()) {
      return false;
    }
    return doc_.Double(d);
  }

  bool Null() { return doc_.Null(); }
  bool Bool(bool b) { return doc_.Bool(b); }
  bool Int(int i) { return doc_.Int(i); }
  bool Uint(unsigned u) { return doc_.Uint(u); }
  bool Int64(int64_t i) { return doc_.Int64(i); }
  bool Uint64(uint64_t u) { return doc_.Uint64(u); }
  bool Double(double d) { return doc_.Double(d); }
  bool String(const char* str, rapidjson::SizeType length, bool copy) {
    return ValidUtf8(str, length) && doc_.String(str, length, copy);
  }
  bool StartObject() { return doc_.StartObject(); }
  bool Key(const char* str, rapidjson::SizeType length, bool copy) {
    return ValidUtf8(str, length) && doc_.Key(str, length, copy);
  }
  bool EndObject(rapidjson::SizeType members) { return doc_.EndObject(members); }
  bool StartArray() { return doc_.StartArray(); }
  bool EndArray(rapidjson::SizeType elements) { return doc_.EndArray(elements); }

  // Set when the parse stopped at a string that is not UTF-8 (its unescaped text, so the offset
  // RapidJSON reports is just past it).
  bool invalid_utf8() const { return invalid_utf8_; }

 private:
  // Only strings can hold non-ASCII bytes (anywhere else they are a syntax error), and escapes
  // decode to valid UTF-8, so checking each string's text covers the document as Python reads it.
  bool ValidUtf8(const char* str, rapidjson::SizeType length) {
    invalid_utf8_ = FindInvalidUtf8({str, length}).has_value();
    return !invalid_utf8_;
  }

  JsonDocument& doc_;
  bool invalid_utf8_ = false;
};

// Parses one value from `stream` into `doc`; a parse error names the source and byte offset.
template <unsigned kExtraFlags, typename Stream>
Status ParseValueInto(Stream& stream, JsonDocument* doc, const std::string& source) {
  JsonReader reader;
  rapidjson::ParseResult result;
  bool invalid_utf8 = false;
  auto generate = [&](JsonDocument& d) {
    ExactNumberHandler handler(d);
    result = reader.Parse<kBaseFlags | kExtraFlags>(stream, handler);
    invalid_utf8 = handler.invalid_utf8();
    return !result.IsError();
  };
  doc->Populate(generate);
  if (invalid_utf8) {
    return Status::InvalidInput(source, fmt::format("invalid UTF-8 in the string that ends before byte {}",
                                                    result.Offset()));
  }
  if (result.IsError()) {
    return Status::InvalidInput(source, fmt::format("invalid JSON at byte {}: {}", result.Offset(),
                                                    rapidjson::GetParseError_En(result.Code())));
  }
  return Status::Ok();
}

// ParseValueInto from a span of text. RapidJSON skips whitespace 16 bytes at a time (SSE4.2) in an
// EncodedInputStream over a MemoryStream, not in the bare MemoryStream. Made at a UTF-8 BOM's bytes
// it would step over them, where json.load refuses them: a value starting with one is parsed from the
// bare stream, which stops there with an error.
template <unsigned kExtraFlags>
Status ParseValueFrom(rapidjson::MemoryStream& stream, JsonDocument* doc, const std::string& source) {
  const auto first = static_cast<unsigned char>(stream.Peek());
  if (first == 0xEF || first == 0xBB || first == 0xBF) return ParseValueInto<kExtraFlags>(stream, doc, source);
  rapidjson::EncodedInputStream<rapidjson::UTF8<>, rapidjson::MemoryStream> encoded(stream);
  return ParseValueInto<kExtraFlags>(encoded, doc, source);
}

}  // namespace

void* JsonAllocator::Malloc(size_t size) {
  if (size == 0) return nullptr;  // as RapidJSON's CrtAllocator
  void* p = std::malloc(size);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

void* JsonAllocator::Realloc(void* original, size_t /*original_size*/, size_t new_size) {
  if (new_size == 0) {
    std::free(original);
    return nullptr;
  }
  void* p = std::realloc(original, new_size);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

void JsonAllocator::Free(void* ptr) noexcept { std::free(ptr); }

Result<JsonDocument> ParseJsonText(std::string_view text, const std::string& source) {
  JsonDocument doc;
  rapidjson::MemoryStream stream(text.data(), text.size());
  MSP_RETURN_IF_ERROR(ParseValueFrom<0>(stream, &doc, source));
  return doc;
}

Result<JsonDocument> ReadJsonFile(const std::string& path) {
  MSP_ASSIGN_OR_RETURN(auto file, MappedFile::Open(path));
  MSP_ASSIGN_OR_RETURN(MappedRegion region, file->MapAll());
  if (region.bytes().empty()) return Status::InvalidInput(path, "empty file, expected JSON");
  return ParseJsonText(AsChars(region.bytes()), path);
}

const JsonValue* Member(const JsonValue& object, const char* key) {
  if (!object.IsObject()) return nullptr;
  // The last of repeated keys, as Python's json.load keeps it (RapidJSON's FindMember finds the first).
  const JsonValue* found = nullptr;
  const std::string_view name(key);
  for (const auto& m : object.GetObject()) {
    if (std::string_view(m.name.GetString(), m.name.GetStringLength()) == name) found = &m.value;
  }
  return found;
}

const char* StringMember(const JsonValue& object, const char* key) {
  const JsonValue* v = Member(object, key);
  return v && v->IsString() ? v->GetString() : nullptr;
}

bool JsonDepthAtMost(const JsonValue& v, int levels) {
  if (levels < 0) return false;
  if (v.IsArray()) {
    for (const auto& e : v.GetArray()) {
      if (!JsonDepthAtMost(e, levels - 1)) return false;
    }
  } else if (v.IsObject()) {
    for (const auto& m : v.GetObject()) {
      if (!JsonDepthAtMost(m.value, levels - 1)) return false;
    }
  }
  return true;
}

}  // namespace msprobe

namespace msprobe {
namespace {

// Walks the punctuation of one object by hand and lets RapidJSON parse each key and value in place.
class ObjectStreamer {
 public:
  ObjectStreamer(std::string_view text, const std::string& source, MappedRegion* region)
      : region_(region),
        stream_(text.data(), text.size()),
        source_(source),
        pool_buffer_(std::make_unique_for_overwrite<char[]>(kPoolBytes)),
        pool_(pool_buffer_.get(), kPoolBytes) {}

  // Calls fn(key, value) for each member of the object starting at the cursor; `descend(key, &done)`
  // may stream a member itself and say so in `done` (then fn is not called for it).
  using DescendFn = std::function<Status(const std::string& key, bool* done)>;
  Status Members(const DescendFn& descend, const JsonMemberFn& fn) {
    MSP_RETURN_IF_ERROR(Expect('{'));
    SkipSpace();
    if (stream_.Peek() == '}') return Expect('}');
    while (true) {
      // Every member's key and value share one pool, emptied here: a document of its own would
      // allocate and free a 64 KB chunk for each, twice per member of a file with millions.
      // (A nested Members call empties it too; by then this member's key is copied into `name`.)
      pool_.Clear();
      JsonDocument key(&pool_);
      MSP_RETURN_IF_ERROR(ParseValue(&key));
      if (!key.IsString()) return Error("an object key is not a string");
      const std::string name(key.GetString(), key.GetStringLength());
      MSP_RETURN_IF_ERROR(Expect(':'));
      bool streamed = false;
      if (descend) MSP_RETURN_IF_ERROR(descend(name, &streamed));
      if (!streamed) {
        JsonDocument value(&pool_);
        MSP_RETURN_IF_ERROR(ParseValue(&value));
        MSP_RETURN_IF_ERROR(fn(name, value));
        DiscardConsumed();
      }
      SkipSpace();
      if (stream_.Peek() == ',') {
        stream_.Take();
        continue;
      }
      return Expect('}');
    }
  }

  // Members(nullptr, fn) with the parsing a few batches of members ahead of `fn` (EntryParsing::kAhead):
  // `fn` gets the same members in the same order, one call at a time, and the first error in text
  // order is the one returned.
  Status MembersAhead(const JsonMemberFn& fn) {
    MSP_RETURN_IF_ERROR(Expect('{'));
    SkipSpace();
    if (stream_.Peek() == '}') return Expect('}');
    // TBB lets no more than kAheadBatches batches live at once, and both stages take them in order:
    // when batch i is parsed, batch i - kAheadBatches is done with, so a ring of them is enough.
    std::array<ParsedBatch, kAheadBatches> ring;
    size_t next = 0;
    bool parsed_all = false;
    std::atomic<bool> failed = false;
    Status status;
    tbb::parallel_pipeline(
        kAheadBatches,
        tbb::make_filter<void, ParsedBatch*>(tbb::filter_mode::serial_in_order,
                                             [&](tbb::flow_control& control) -> ParsedBatch* {
                                               if (parsed_all || failed) {
                                                 control.stop();
                                                 return nullptr;
                                               }
                                               ParsedBatch* batch = &ring[next++ % ring.size()];
                                               parsed_all = ParseBatch(batch);
                                               return batch;
                                             }) &
            tbb::make_filter<ParsedBatch*, void>(tbb::filter_mode::serial_in_order, [&](ParsedBatch* batch) {
              if (failed) return;
              for (auto& [key, value] : batch->members) {
                status = fn(key, value);
                if (!status.ok()) break;
              }
              if (status.ok()) status = batch->error;
              failed = !status.ok();
            }));
    return status;
  }

  // Past the '"' that closes the string whose text starts at p; null when none does.
  static const char* StringEnd(const char* p, const char* end) {
    while (true) {
      const auto* quote = static_cast<const char*>(std::memchr(p, '"', end - p));
      if (quote == nullptr) return nullptr;
      size_t backslashes = 0;  // an odd run of them escapes the quote
      while (quote - backslashes > p && quote[-1 - static_cast<std::ptrdiff_t>(backslashes)] == '\\') ++backslashes;
      if (backslashes % 2 == 0) return quote + 1;
      p = quote + 1;
    }
  }
  static bool EndsToken(char c) {
    return c == ',' || c == '}' || c == ']' || c == ' ' || c == '\n' || c == '\r' || c == '\t';
  }
  // Skips the value at the cursor by its strings and brackets alone (ParseJsonSpans checks the rest).
  Status SkipValue() {
    SkipSpace();
    const char* p = stream_.src_;
    const char* const end = stream_.end_;
    size_t depth = 0;
    while (p < end) {
      const char c = *p++;
      if (c == '"') {
        p = StringEnd(p, end);
        if (p == nullptr) break;
      } else if (c == '{' || c == '[') {
        ++depth;
        continue;
      } else if (c == '}' || c == ']') {
        if (depth == 0) {
          stream_.src_ = p - 1;
          return Error("expected a value");
        }
        --depth;
      } else if (depth == 0) {  // a bare token: up to the next delimiter
        while (p < end && !EndsToken(*p)) ++p;
      }
      if (depth == 0) {
        stream_.src_ = p;
        return Status::Ok();
      }
    }
    stream_.src_ = end;
    return Error("the value does not end before the end of the file");
  }
  // Moves the cursor to byte `at` of the text.
  void Seek(size_t at) { stream_.src_ = stream_.begin_ + at; }
  size_t Tell() const { return stream_.Tell(); }
  Status ParseValueAt(size_t at, JsonDocument* doc) {
    Seek(at);
    return ParseValue(doc);
  }

  Status ExpectEnd() {
    SkipSpace();
    if (stream_.Tell() != stream_.size_) return Error("unexpected text after the top-level object");
    return Status::Ok();
  }
  char PeekAfterSpace() {
    SkipSpace();
    return stream_.Peek();
  }

 private:
  void SkipSpace() {
    while (true) {
      const char c = stream_.Peek();
      if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return;
      stream_.Take();
    }
  }
  Status Expect(char c) {
    SkipSpace();
    if (stream_.Peek() != c || stream_.Tell() >= stream_.size_) {
      return Error(fmt::format("expected '{}'{}", c, stream_.Tell() >= stream_.size_ ? " before the end of the file" : ""));
    }
    stream_.Take();
    return Status::Ok();
  }
  Status ParseValue(JsonDocument* doc) {
    return ParseValueFrom<rapidjson::kParseStopWhenDoneFlag>(stream_, doc, source_);
  }
  Status Error(std::string what) const {
    return Status::InvalidInput(source_, fmt::format("invalid JSON at byte {}: {}", stream_.Tell(), what));
  }

  // Members parsed for MembersAhead, the values in the batch's own pool; `error` ends the object.
  struct ParsedBatch {
    ParsedBatch() : pool_buffer(std::make_unique_for_overwrite<char[]>(kBatchPoolBytes)), pool(pool_buffer.get(), kBatchPoolBytes) {}
    std::unique_ptr<char[]> pool_buffer;
    JsonPool pool;
    std::vector<std::pair<std::string, JsonValue>> members;
    Status error;
  };

  // Parses members into `batch` (emptied first) until about kBatchBytes of text; true once the
  // object has ended, at its '}' or at an error.
  bool ParseBatch(ParsedBatch* batch) {
    batch->members.clear();
    batch->pool.Clear();
    batch->error = Status::Ok();
    const size_t begin = stream_.Tell();
    const auto fail = [&](Status error) {
      batch->error = std::move(error);
      return true;
    };
    while (true) {
      JsonDocument key(&batch->pool);
      if (Status s = ParseValue(&key); !s.ok()) return fail(std::move(s));
      if (!key.IsString()) return fail(Error("an object key is not a string"));
      std::string name(key.GetString(), key.GetStringLength());
      if (Status s = Expect(':'); !s.ok()) return fail(std::move(s));
      JsonDocument value(&batch->pool);
      if (Status s = ParseValue(&value); !s.ok()) return fail(std::move(s));
      batch->members.emplace_back(std::move(name), std::move(static_cast<JsonValue&>(value)));
      DiscardConsumed();
      SkipSpace();
      if (stream_.Peek() != ',') {
        if (Status s = Expect('}'); !s.ok()) return fail(std::move(s));
        return true;
      }
      stream_.Take();
      if (stream_.Tell() - begin >= kBatchBytes) return false;
    }
  }

  // Drops what was parsed from the resident set every 1 MB: the file is read once, front to back.
  // (Every 64 MB, a streamed compare of two 15 MB dumps kept all the target's pages: an eighth of its
  // peak; every 4 MB, a twentieth.)
  void DiscardConsumed() {
    constexpr size_t kStep = size_t{1} << 20;
    if (region_ == nullptr || stream_.Tell() - discarded_ < kStep) return;
    discarded_ = stream_.Tell();
    region_->DiscardPrefix(discarded_);
  }

  static constexpr size_t kPoolBytes = 256 << 10;  // a dump.json member is a few KB; larger ones add chunks
  // A batch of members is small next to a dump (memory holds kAheadBatches of them) and large next
  // to the cost of handing it over.
  static constexpr size_t kBatchBytes = 1 << 20;
  static constexpr size_t kBatchPoolBytes = 4 << 20;  // RapidJSON's values outgrow their text; more adds chunks
  // The pools' buffers are not cleared: a page is only taken once a value is written to it, so a
  // small dump does not pay for the whole ring (zeroed, it was 25 MB of a 38 MB compare of two tiny dumps).
  static constexpr size_t kAheadBatches = 3;

  MappedRegion* region_;  // null: not a mapped file
  rapidjson::MemoryStream stream_;
  const std::string& source_;
  size_t discarded_ = 0;
  std::unique_ptr<char[]> pool_buffer_;
  JsonPool pool_;
};

}  // namespace

namespace {

// The top-level object of `text`, member by member to `on_member`; `expand`, when an object, is
// announced to it as an empty one and its members go to `walk` (streamed or located).
Status WalkTopLevel(std::string_view text, const std::string& source, std::string_view expand,
                    const JsonMemberFn& on_member, MappedRegion* mapped,
                    const std::function<Status(ObjectStreamer&)>& walk) {
  if (text.empty()) return Status::InvalidInput(source, "empty file, expected JSON");
  ObjectStreamer streamer(text, source, mapped);
  if (streamer.PeekAfterSpace() != '{') return Status::InvalidInput(source, "top level is not a JSON object");
  const auto descend = [&](const std::string& key, bool* done) -> Status {
    *done = key == expand && streamer.PeekAfterSpace() == '{';
    if (!*done) return Status::Ok();
    MSP_RETURN_IF_ERROR(on_member(key, JsonValue(rapidjson::kObjectType)));  // announce it
    return walk(streamer);
  };
  MSP_RETURN_IF_ERROR(streamer.Members(descend, on_member));
  return streamer.ExpectEnd();
}

}  // namespace

Status StreamJsonObject(std::string_view text, const std::string& source, std::string_view expand,
                        const JsonMemberFn& on_member, const JsonMemberFn& on_entry, EntryParsing parsing,
                        MappedRegion* mapped) {
  return WalkTopLevel(text, source, expand, on_member, mapped, [&](ObjectStreamer& streamer) {
    return parsing == EntryParsing::kAhead ? streamer.MembersAhead(on_entry) : streamer.Members(nullptr, on_entry);
  });
}

Status OutlineJsonObject(std::string_view text, const std::string& source, std::string_view expand,
                         const JsonMemberFn& on_member, const JsonSpanFn& on_span) {
  // The members of `expand` are walked as Members walks any object, each value skipped, not parsed.
  return WalkTopLevel(text, source, expand, on_member, nullptr, [&](ObjectStreamer& streamer) {
    return streamer.Members(
        [&](const std::string& key, bool* done) -> Status {
          *done = true;
          streamer.PeekAfterSpace();  // the value starts after the space
          const size_t begin = streamer.Tell();
          MSP_RETURN_IF_ERROR(streamer.SkipValue());
          return on_span(JsonMemberSpan{key, begin, streamer.Tell()});
        },
        nullptr);
  });
}

Status ParseJsonSpans(std::string_view text, const std::string& source, const std::vector<JsonMemberSpan>& spans,
                      const JsonMemberFn& on_entry) {
  ObjectStreamer streamer(text, source, nullptr);
  JsonPool pool;
  for (const JsonMemberSpan& span : spans) {
    if (span.begin > span.end || span.end > text.size()) {
      return Status::InvalidInput(source, fmt::format("no value at bytes {}-{}", span.begin, span.end));
    }
    pool.Clear();
    JsonDocument value(&pool);
    MSP_RETURN_IF_ERROR(streamer.ParseValueAt(span.begin, &value));
    if (streamer.Tell() != span.end) {
      return Status::InvalidInput(source, fmt::format("invalid JSON at byte {}: the value of '{}' ends at byte {}",
                                                      streamer.Tell(), span.key, span.end));
    }
    MSP_RETURN_IF_ERROR(on_entry(span.key, value));
  }
  return Status::Ok();
}

}  // namespace msprobe
