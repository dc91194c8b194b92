#include "msprobe/dump/json_file.h"

#include <fmt/format.h>
#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>

#include "msprobe/dump/mapped_file.h"

namespace msprobe {

Result<rapidjson::Document> ParseJsonText(std::string_view text, const std::string& source) {
  rapidjson::Document doc;
  // Full precision: the default fast path can be 1 ulp off, and msprobe's values are Python's exact
  // doubles. Iterative: a hostile file nested a million levels deep must not overflow the stack.
  constexpr unsigned kFlags =
      rapidjson::kParseNanAndInfFlag | rapidjson::kParseFullPrecisionFlag | rapidjson::kParseIterativeFlag;
  doc.Parse<kFlags>(text.data(), text.size());
  if (doc.HasParseError()) {
    return Status::InvalidInput(source, fmt::format("invalid JSON at byte {}: {}", doc.GetErrorOffset(),
                                                    rapidjson::GetParseError_En(doc.GetParseError())));
  }
  return doc;
}

Result<rapidjson::Document> ReadJsonFile(const std::string& path) {
  MSP_ASSIGN_OR_RETURN(auto file, MappedFile::Open(path));
  MSP_ASSIGN_OR_RETURN(MappedRegion region, file->MapAll());
  if (region.bytes().empty()) return Status::InvalidInput(path, "empty file, expected JSON");
  return ParseJsonText(AsChars(region.bytes()), path);
}

const JsonValue* Member(const JsonValue& object, const char* key) {
  if (!object.IsObject()) return nullptr;
  const auto it = object.FindMember(key);
  return it == object.MemberEnd() ? nullptr : &it->value;
}

const char* StringMember(const JsonValue& object, const char* key) {
  const JsonValue* v = Member(object, key);
  return v && v->IsString() ? v->GetString() : nullptr;
}

}  // namespace msprobe

namespace msprobe {
namespace {

constexpr unsigned kStreamFlags = rapidjson::kParseNanAndInfFlag | rapidjson::kParseFullPrecisionFlag |
                                  rapidjson::kParseIterativeFlag | rapidjson::kParseStopWhenDoneFlag;

// Walks the punctuation of one object by hand and lets RapidJSON parse each key and value in place.
class ObjectStreamer {
 public:
  ObjectStreamer(MappedRegion* region, const std::string& source)
      : region_(region), stream_(AsChars(region->bytes()).data(), region->bytes().size()), source_(source) {}

  // Calls fn(key, value) for each member of the object starting at the cursor; `descend(key)` says
  // whether a member is itself to be streamed (then fn is not called for it).
  Status Members(const std::function<Status(const std::string&)>& descend, const JsonMemberFn& fn) {
    MSP_RETURN_IF_ERROR(Expect('{'));
    SkipSpace();
    if (stream_.Peek() == '}') return Expect('}');
    while (true) {
      rapidjson::Document key;
      MSP_RETURN_IF_ERROR(ParseValue(&key));
      if (!key.IsString()) return Error("an object key is not a string");
      const std::string name(key.GetString(), key.GetStringLength());
      MSP_RETURN_IF_ERROR(Expect(':'));
      bool streamed = false;
      if (descend) {
        Status st = descend(name);
        if (st.code() == Code::kOk) streamed = true;
        else if (st.code() != Code::kNotFound) return st;
      }
      if (!streamed) {
        rapidjson::Document value;
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
  Status ParseValue(rapidjson::Document* doc) {
    doc->ParseStream<kStreamFlags>(stream_);
    if (doc->HasParseError()) {
      return Status::InvalidInput(source_, fmt::format("invalid JSON at byte {}: {}", doc->GetErrorOffset(),
                                                       rapidjson::GetParseError_En(doc->GetParseError())));
    }
    return Status::Ok();
  }
  Status Error(std::string what) const {
    return Status::InvalidInput(source_, fmt::format("invalid JSON at byte {}: {}", stream_.Tell(), what));
  }

  // Drops what was parsed from the resident set every 64 MB: the file is read once, front to back.
  void DiscardConsumed() {
    constexpr size_t kStep = size_t{64} << 20;
    if (stream_.Tell() - discarded_ < kStep) return;
    discarded_ = stream_.Tell();
    region_->DiscardPrefix(discarded_);
  }

  MappedRegion* region_;
  rapidjson::MemoryStream stream_;
  const std::string& source_;
  size_t discarded_ = 0;
};

}  // namespace

Status StreamJsonObject(const std::string& path, std::string_view expand, const JsonMemberFn& on_member,
                        const JsonMemberFn& on_entry) {
  MSP_ASSIGN_OR_RETURN(auto file, MappedFile::Open(path));
  MSP_ASSIGN_OR_RETURN(MappedRegion region, file->MapAll());
  if (region.bytes().empty()) return Status::InvalidInput(path, "empty file, expected JSON");
  ObjectStreamer streamer(&region, path);
  if (streamer.PeekAfterSpace() != '{') return Status::InvalidInput(path, "top level is not a JSON object");
  const auto descend = [&](const std::string& key) -> Status {
    if (key != expand || streamer.PeekAfterSpace() != '{') return Status::NotFound(path, key);
    MSP_RETURN_IF_ERROR(on_member(key, rapidjson::Value(rapidjson::kObjectType)));  // announce it
    return streamer.Members(nullptr, on_entry);
  };
  MSP_RETURN_IF_ERROR(streamer.Members(descend, on_member));
  return streamer.ExpectEnd();
}

}  // namespace msprobe
