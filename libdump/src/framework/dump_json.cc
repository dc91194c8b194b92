#include "msprobe/dump/framework/dump_json.h"

#include <fmt/format.h>

namespace msprobe {
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
    s.kind = RecordedStat::Kind::kNull;  // null, or a value msprobe never writes
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
      if (md5->IsString()) r.md5 = md5->GetString();
      else if (md5->IsNumber()) r.md5 = fmt::format("{}", md5->GetDouble());  // xor of a 0-d tensor
    }
    if (const JsonValue* name = Member(v, "data_name")) {
      if (!name->IsString()) return Bad(r, "\"data_name\" is not a string");
      r.data_name = name->GetString();
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

}  // namespace

Result<DumpJson> ParseDumpJson(const JsonValue& root, const std::string& source) {
  if (!root.IsObject()) return Status::InvalidInput(source, "top level is not a JSON object");
  DumpJson dump;
  dump.path = source;
  if (const char* s = StringMember(root, "task")) dump.task = s;
  if (const char* s = StringMember(root, "level")) dump.level = s;
  const char* framework = StringMember(root, "framework");
  dump.framework = framework ? framework : "pytorch";
  const JsonValue* data = Member(root, "data");
  if (!data || !data->IsObject()) return Status::InvalidInput(source, "no \"data\" object");
  TensorCollector collector(source, &dump.tensors);
  for (const auto& m : data->GetObject()) {
    MSP_RETURN_IF_ERROR(collector.Walk(m.name.GetString(), m.value, "", 0));
  }
  return dump;
}

Result<DumpJson> ReadDumpJson(const std::string& path) {
  MSP_ASSIGN_OR_RETURN(rapidjson::Document doc, ReadJsonFile(path));
  return ParseDumpJson(doc, path);
}

}  // namespace msprobe
