#include "msprobe/dump/framework/dump_json.h"

#include <fmt/format.h>

#include <utility>

#include "msprobe/dump/text/python_format.h"
#include "msprobe/dump/io/mapped_file.h"

namespace msprobe {

Status CheckEntryShape(std::string_view key, const JsonValue& value, const std::string& source) {
  if (value.IsObject()) return Status::Ok();
  const size_t last_dot = key.rfind('.');
  const std::string_view last = last_dot == std::string_view::npos ? key : key.substr(last_dot + 1);
  const std::string_view rest = last_dot == std::string_view::npos ? std::string_view() : key.substr(0, last_dot);
  const std::string_view prev = rest.substr(rest.rfind('.') == std::string_view::npos ? 0 : rest.rfind('.') + 1);
  if (last == "debug" || last == "parameters_grad" || prev == "parameters_grad") return Status::Ok();
  return Status::InvalidInput(source, fmt::format("entry '{}' is not an object", key));
}
namespace {

// msprobe's tensor objects carry a "type" naming a tensor class plus "dtype" and "shape".
bool IsTensorObject(const JsonValue& v) {
  if (!v.IsObject()) return false;
  const char* type = StringMember(v, "type");
  if (!type || !Member(v, "dtype") || !Member(v, "shape")) return false;
  const std::string_view t(type);
  return t.ends_with("Tensor") || t == "numpy.ndarray";
}

RecordedStat ReadStat(const JsonValue& object, const char* key) {
  RecordedStat s;
  const JsonValue* v = Member(object, key);
  if (!v) return s;
  if (v->IsNumber()) {
    s.kind = RecordedStat::Kind::kNumber;
    s.number = v->GetDouble();
  } else if (v->IsBool()) {
    s.kind = RecordedStat::Kind::kBool;
    s.number = v->GetBool() ? 1 : 0;
  } else {
    s.kind = v->IsNull() ? RecordedStat::Kind::kNull : RecordedStat::Kind::kOther;
  }
  return s;
}

class TensorCollector {
 public:
  TensorCollector(const std::string& source, std::vector<TensorRecord>* out) : source_(source), out_(out) {}

  Status Walk(const std::string& entry, const JsonValue& v, const std::string& path, int depth) {
    // msprobe stops at DUMP_MAX_DEPTH = 400; a deeper file was not written by it.
    if (depth > 400) return Status::InvalidInput(source_, fmt::format("'{}' nests deeper than 400 levels", entry));
    if (IsTensorObject(v)) return Add(entry, v, path);
    const auto child = [&](std::string_view key) { return path.empty() ? std::string(key) : path + "." + std::string(key); };
    if (v.IsArray()) {
      for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
        MSP_RETURN_IF_ERROR(Walk(entry, v[i], child(std::to_string(i)), depth + 1));
      }
    } else if (v.IsObject()) {
      for (const auto& m : v.GetObject()) {
        MSP_RETURN_IF_ERROR(Walk(entry, m.value, child({m.name.GetString(), m.name.GetStringLength()}), depth + 1));
      }
    }
    return Status::Ok();
  }

 private:
  Status Add(const std::string& entry, const JsonValue& v, const std::string& path) {
    TensorRecord r;
    r.entry = entry;
    r.path = path;
    r.type = StringMember(v, "type");
    const char* dtype = StringMember(v, "dtype");
    r.dtype = dtype ? dtype : "";
    const JsonValue& shape = *Member(v, "shape");
    if (!shape.IsArray()) return Bad(r, "\"shape\" is not a list");
    for (const auto& d : shape.GetArray()) {
      if (!d.IsInt64()) return Bad(r, "\"shape\" holds a non-integer");
      r.shape.push_back(d.GetInt64());
    }
    r.max = ReadStat(v, "Max");
    r.min = ReadStat(v, "Min");
    r.mean = ReadStat(v, "Mean");
    r.norm = ReadStat(v, "Norm");
    if (const JsonValue* md5 = Member(v, "md5")) {
      if (md5->IsString()) r.md5 = std::string(md5->GetString(), md5->GetStringLength());
      else if (md5->IsNumber()) r.md5 = fmt::format("{}", md5->GetDouble());  // xor of a 0-d tensor
    }
    if (const JsonValue* name = Member(v, "data_name")) {
      if (!name->IsString()) return Bad(r, "\"data_name\" is not a string");
      r.data_name = std::string(name->GetString(), name->GetStringLength());  // an escaped \u0000 stays, to be refused
    }
    out_->push_back(std::move(r));
    return Status::Ok();
  }
  Status Bad(const TensorRecord& r, std::string_view what) const {
    return Status::InvalidInput(source_, fmt::format("{}{}{}: {}", r.entry, r.path.empty() ? "" : ".", r.path, what));
  }
  const std::string& source_;
  std::vector<TensorRecord>* out_;
};

// Checks each top-level member, passes it on to the visitor and reads it into the header.
class HeaderReader {
 public:
  HeaderReader(const std::string& source, DumpJsonVisitor& visitor) : source_(source), visitor_(visitor) {}

  Status Member(std::string_view key, const JsonValue& v) {
    if (!JsonDepthAtMost(v, kMaxJsonDepth - 1)) {
      return Status::InvalidInput(source_, fmt::format("JSON nested deeper than {} levels", kMaxJsonDepth));
    }
    MSP_RETURN_IF_ERROR(visitor_.Member(key, v));
    if (key == "task") {
      header_.task = PythonTruthy(v) ? PythonStr(v) : "";
    } else if (key == "level" && v.IsString()) {
      header_.level.assign(v.GetString(), v.GetStringLength());
    } else if (key == "framework" && v.IsString()) {
      header_.framework.assign(v.GetString(), v.GetStringLength());
    } else if (key == "data" && v.IsObject()) {
      header_.has_data = true;
    }
    return Status::Ok();
  }
  Status Data() {
    at_data_ = header_;
    return visitor_.Data(header_);
  }
  // A member as a streaming reader meets it: "data" opening tells the visitor (its entries follow).
  Status Read(std::string_view key, const JsonValue& v) {
    MSP_RETURN_IF_ERROR(Member(key, v));
    return key == "data" && v.IsObject() ? Data() : Status::Ok();
  }
  // The header of the members before "data" (empty until it opens).
  const DumpJsonHeader& at_data() const { return at_data_; }
  DumpJsonHeader Finish() && { return std::move(header_); }

 private:
  const std::string& source_;
  DumpJsonVisitor& visitor_;
  DumpJsonHeader header_, at_data_;
};

Result<DumpJsonHeader> StreamDumpJsonBytes(std::string_view text, const std::string& source, DumpJsonVisitor& visitor,
                                           EntryParsing parsing, MappedRegion* mapped) {
  HeaderReader reader(source, visitor);
  MSP_RETURN_IF_ERROR(StreamJsonObject(
      text, source, "data",
      [&](std::string_view key, const JsonValue& v) { return reader.Read(key, v); },
      [&](std::string_view key, const JsonValue& v) { return visitor.Entry(key, v); }, parsing, mapped));
  return std::move(reader).Finish();
}

// Collects the tensor records of the entries.
class RecordReader : public DumpJsonVisitor {
 public:
  explicit RecordReader(const std::string& source) : collector_(source, &dump_.tensors) { dump_.path = source; }

  Status Entry(std::string_view key, const JsonValue& value) override {
    MSP_RETURN_IF_ERROR(CheckEntryShape(key, value, dump_.path));
    ++dump_.entries;
    return collector_.Walk(std::string(key), value, "", 0);
  }
  Result<DumpJson> Finish(Result<DumpJsonHeader> header) && {
    if (!header.ok()) return header.status();
    if (!header->has_data) return Status::InvalidInput(dump_.path, "no \"data\" object");
    dump_.task = std::move(header->task);
    dump_.level = std::move(header->level);
    dump_.framework = std::move(header->framework);
    return std::move(dump_);
  }

 private:
  DumpJson dump_;
  TensorCollector collector_;
};

}  // namespace

Result<DumpJsonHeader> StreamDumpJson(const std::string& path, DumpJsonVisitor& visitor, EntryParsing parsing) {
  MSP_ASSIGN_OR_RETURN(auto file, MappedFile::Open(path));
  MSP_ASSIGN_OR_RETURN(MappedRegion region, file->MapAll());
  return StreamDumpJsonBytes(AsChars(region.bytes()), path, visitor, parsing, &region);
}

namespace {

// Stops the stream where "data" opens, keeping the header read so far.
class HeaderPeek final : public DumpJsonVisitor {
 public:
  Status Data(const DumpJsonHeader& header) override {
    header_ = header;
    return Status::Unsupported("", "stop");  // ends the stream here; not an error of the file
  }
  Status Entry(std::string_view, const JsonValue&) override { return Status::Ok(); }
  std::optional<DumpJsonHeader> header_;
};

}  // namespace

std::optional<DumpJsonHeader> HeaderBeforeData(const std::string& path) {
  HeaderPeek peek;
  (void)StreamDumpJson(path, peek);  // stopped by the visitor at "data", or by an error before it
  return peek.header_;
}

Result<DumpJsonOutline> OutlineDumpJson(const std::string& path) {
  MSP_ASSIGN_OR_RETURN(auto file, MappedFile::Open(path));
  MSP_ASSIGN_OR_RETURN(MappedRegion region, file->Map(0, file->size(), /*populate=*/true));  // read through
  // The entries come as spans: the visitor reads none of them.
  struct NoEntries final : DumpJsonVisitor {
    Status Entry(std::string_view, const JsonValue&) override { return Status::Ok(); }
  } no_entries;
  HeaderReader reader(path, no_entries);
  DumpJsonOutline outline;
  MSP_RETURN_IF_ERROR(OutlineJsonObject(
      AsChars(region.bytes()), path, "data", [&](std::string_view key, const JsonValue& v) { return reader.Read(key, v); },
      [&](JsonMemberSpan span) {
        outline.entries.push_back(std::move(span));
        return Status::Ok();
      }));
  outline.at_data = reader.at_data();
  outline.header = std::move(reader).Finish();
  return outline;
}

Status StreamDumpJsonEntries(const std::string& path, const DumpJsonHeader& at_data,
                             const std::vector<JsonMemberSpan>& spans, DumpJsonVisitor& visitor) {
  MSP_ASSIGN_OR_RETURN(auto file, MappedFile::Open(path));
  MSP_ASSIGN_OR_RETURN(MappedRegion region, file->MapAll());
  MSP_RETURN_IF_ERROR(visitor.Data(at_data));
  return ParseJsonSpans(AsChars(region.bytes()), path, spans,
                        [&](std::string_view key, const JsonValue& v) { return visitor.Entry(key, v); });
}

Result<DumpJsonHeader> StreamDumpJsonText(std::string_view text, const std::string& source,
                                          DumpJsonVisitor& visitor) {
  return StreamDumpJsonBytes(text, source, visitor, EntryParsing::kInline, nullptr);
}

Result<DumpJsonHeader> VisitDumpJson(const JsonValue& root, const std::string& source, DumpJsonVisitor& visitor) {
  if (!root.IsObject()) return Status::InvalidInput(source, "top level is not a JSON object");
  HeaderReader reader(source, visitor);
  const JsonValue empty(rapidjson::kObjectType);
  for (const auto& m : root.GetObject()) {
    const std::string_view key(m.name.GetString(), m.name.GetStringLength());
    MSP_RETURN_IF_ERROR(reader.Member(key, key == "data" && m.value.IsObject() ? empty : m.value));
  }
  // A repeated "data" counts by its first value only, as a lookup by key finds it.
  const JsonValue* data = Member(root, "data");
  const bool has_data = data != nullptr && data->IsObject();
  if (has_data) {
    MSP_RETURN_IF_ERROR(reader.Data());
    for (const auto& m : data->GetObject()) {
      MSP_RETURN_IF_ERROR(visitor.Entry({m.name.GetString(), m.name.GetStringLength()}, m.value));
    }
  }
  DumpJsonHeader header = std::move(reader).Finish();
  header.has_data = has_data;
  return header;
}

Status CollectEntryTensors(std::string_view key, const JsonValue& entry, const std::string& source,
                           std::vector<TensorRecord>* out) {
  return TensorCollector(source, out).Walk(std::string(key), entry, "", 0);
}

Result<DumpJson> ReadDumpJson(const std::string& path) {
  RecordReader reader(path);
  return std::move(reader).Finish(StreamDumpJson(path, reader));
}

Result<DumpJson> ReadDumpJsonText(std::string_view text, const std::string& source) {
  RecordReader reader(source);
  return std::move(reader).Finish(StreamDumpJsonText(text, source, reader));
}

Result<DumpJson> ParseDumpJson(const JsonValue& root, const std::string& source) {
  RecordReader reader(source);
  return std::move(reader).Finish(VisitDumpJson(root, source, reader));
}

}  // namespace msprobe
