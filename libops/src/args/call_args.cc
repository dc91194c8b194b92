#include "msprobe/ops/args/call_args.h"

#include <fmt/format.h>

#include <cmath>

namespace msprobe::ops {
namespace {

// formats.md §1.3: msprobe nests arguments at most 400 deep; deeper input is refused, not recursed into.
constexpr int kMaxDepth = 400;

// numpy scalar types (formats.md §1.6) by the kind of Python number they hold.
bool IsNumpyFloat(std::string_view t) { return t == "float16" || t == "float32" || t == "float64"; }
bool IsNumpyInt(std::string_view t) {
  return t == "int8" || t == "int16" || t == "int32" || t == "int64" || t == "uint8" || t == "uint16" ||
         t == "uint32" || t == "uint64";
}
// A tensor object as `verify` recognises one (formats.md §1.6): a type ending in "Tensor" or
// numpy.ndarray, with dtype and shape.
bool IsTensorType(std::string_view t) { return t.ends_with("Tensor") || t == "numpy.ndarray"; }

class Parser {
 public:
  explicit Parser(const std::string& source) : source_(source) {}

  Result<ArgValue> Value(const JsonValue& v, const std::string& path, int depth) {
    if (depth > kMaxDepth) return Error(path, fmt::format("nested deeper than {}", kMaxDepth));
    if (v.IsNull()) return ArgValue{};
    if (v.IsArray()) return List(v, path, depth);
    if (!v.IsObject()) return Unsupported(path, "a bare JSON value is not an msprobe argument form");
    const JsonValue* type = Member(v, "type");
    if (type == nullptr) {
      if (v.MemberCount() == 0) return Unsupported(path, "{} (an object msprobe could not record)");
      return Unsupported(path, "an object without \"type\" (dict, namedtuple or P2POp)");
    }
    if (type->IsNull()) return ArgValue{};  // {"type": null}: None
    if (!type->IsString()) return Error(path, "\"type\" is not a string");
    const std::string_view t(type->GetString(), type->GetStringLength());
    if (IsTensorType(t)) return Tensor(v, t, path);
    const JsonValue* value = Member(v, "value");
    if (value == nullptr) return Unsupported(path, fmt::format("{} without \"value\"", t));
    ArgValue out;
    out.recorded_type = t;
    if (t == "int" || IsNumpyInt(t)) {
      if (!value->IsInt64()) return Error(path, fmt::format("{} value is not an integer", t));
      out.kind = ArgValue::Kind::kInt;
      out.int_value = value->GetInt64();
      out.float_value = static_cast<double>(out.int_value);
    } else if (t == "float" || IsNumpyFloat(t)) {
      if (!value->IsNumber()) return Error(path, fmt::format("{} value is not a number", t));
      out.kind = ArgValue::Kind::kFloat;
      out.float_value = value->GetDouble();
    } else if (t == "bool" || t == "bool_") {
      if (!value->IsBool()) return Error(path, fmt::format("{} value is not a boolean", t));
      out.kind = ArgValue::Kind::kBool;
      out.int_value = value->GetBool() ? 1 : 0;
      out.float_value = static_cast<double>(out.int_value);
    } else if (t == "str") {
      if (!value->IsString()) return Error(path, "str value is not a string");
      out.kind = ArgValue::Kind::kString;
      out.text.assign(value->GetString(), value->GetStringLength());
    } else if (t == "torch.dtype") {
      if (!value->IsString() || !FromTorchName(value->GetString())) return Error(path, "unknown torch.dtype value");
      out.kind = ArgValue::Kind::kDType;
      out.text.assign(value->GetString(), value->GetStringLength());
    } else if (t == "torch.Size") {
      if (!value->IsArray()) return Error(path, "torch.Size value is not a list");
      out.kind = ArgValue::Kind::kList;
      for (const JsonValue& d : value->GetArray()) {
        if (!d.IsInt64()) return Error(path, "torch.Size holds a non-integer");
        ArgValue item;
        item.kind = ArgValue::Kind::kInt;
        item.recorded_type = "int";
        item.int_value = d.GetInt64();
        item.float_value = static_cast<double>(item.int_value);
        out.items.push_back(std::move(item));
      }
    } else {
      return Unsupported(path, fmt::format("argument type {}", t));
    }
    return out;
  }

 private:
  Result<ArgValue> List(const JsonValue& v, const std::string& path, int depth) {
    ArgValue out;
    out.kind = ArgValue::Kind::kList;
    size_t i = 0;
    for (const JsonValue& item : v.GetArray()) {
      MSP_ASSIGN_OR_RETURN(ArgValue parsed, Value(item, fmt::format("{}.{}", path, i++), depth + 1));
      out.items.push_back(std::move(parsed));
    }
    return out;
  }

  Result<ArgValue> Tensor(const JsonValue& v, std::string_view type, const std::string& path) {
    ArgValue out;
    out.kind = ArgValue::Kind::kTensor;
    out.recorded_type = type;
    TensorRef& t = out.tensor;
    t.type = type;
    t.path = path;
    const char* dtype = StringMember(v, "dtype");
    if (dtype == nullptr) return Error(path, "tensor without a dtype");
    const std::optional<DType> parsed = FromDumpName(dtype);
    if (!parsed) return Unsupported(path, fmt::format("tensor dtype {}", dtype));
    t.dtype = *parsed;
    const JsonValue* shape = Member(v, "shape");
    if (shape == nullptr || !shape->IsArray()) return Error(path, "tensor without a shape list");
    for (const JsonValue& d : shape->GetArray()) {
      if (!d.IsInt64() || d.GetInt64() < 0) return Error(path, "tensor shape holds a negative or non-integer size");
      t.shape.push_back(d.GetInt64());
    }
    if (const JsonValue* name = Member(v, "data_name"); name != nullptr) {
      if (!name->IsString()) return Error(path, "data_name is not a string");
      t.data_name.emplace(name->GetString(), name->GetStringLength());
    }
    return out;
  }

  Status Error(const std::string& path, const std::string& message) const {
    return Status::InvalidInput(source_, fmt::format("{}: {}", path, message));
  }
  Status Unsupported(const std::string& path, const std::string& what) const {
    return Status::Unsupported(source_, fmt::format("{}: {} is not supported", path, what));
  }

  const std::string& source_;
};

}  // namespace

std::string_view KindName(ArgValue::Kind kind) {
  switch (kind) {
    case ArgValue::Kind::kNone: return "None";
    case ArgValue::Kind::kTensor: return "tensor";
    case ArgValue::Kind::kInt: return "int";
    case ArgValue::Kind::kFloat: return "float";
    case ArgValue::Kind::kBool: return "bool";
    case ArgValue::Kind::kString: return "str";
    case ArgValue::Kind::kDType: return "dtype";
    case ArgValue::Kind::kList: return "list";
  }
  __builtin_unreachable();  // every Kind is listed above; -Wswitch keeps it so
}

const ArgValue* CallArgs::Kwarg(std::string_view name) const {
  for (const auto& [key, value] : kwargs) {
    if (key == name) return &value;
  }
  return nullptr;
}

Result<CallArgs> ParseCallArgs(const JsonValue& entry, const std::string& source) {
  if (!entry.IsObject()) return Status::InvalidInput(source, "entry is not an object");
  const JsonValue* args = Member(entry, "input_args");
  if (args == nullptr) return Status::Unsupported(source, "no input_args (a backward or module entry?)");
  if (!args->IsArray()) return Status::InvalidInput(source, "input_args is not a list");
  Parser parser(source);
  CallArgs call;
  size_t i = 0;
  for (const JsonValue& a : args->GetArray()) {
    MSP_ASSIGN_OR_RETURN(ArgValue v, parser.Value(a, fmt::format("input_args.{}", i++), 1));
    call.args.push_back(std::move(v));
  }
  if (const JsonValue* kwargs = Member(entry, "input_kwargs"); kwargs != nullptr) {
    if (!kwargs->IsObject()) return Status::InvalidInput(source, "input_kwargs is not an object");
    for (const auto& m : kwargs->GetObject()) {
      std::string key(m.name.GetString(), m.name.GetStringLength());
      MSP_ASSIGN_OR_RETURN(ArgValue v, parser.Value(m.value, "input_kwargs." + key, 1));
      call.kwargs.emplace_back(std::move(key), std::move(v));
    }
  }
  // formats.md §1.3: a tuple output is the list; any other output is wrapped as [value].
  if (const JsonValue* output = Member(entry, "output"); output != nullptr) {
    if (!output->IsArray()) return Status::InvalidInput(source, "output is not a list");
    i = 0;
    for (const JsonValue& o : output->GetArray()) {
      MSP_ASSIGN_OR_RETURN(ArgValue v, parser.Value(o, fmt::format("output.{}", i++), 1));
      call.outputs.push_back(std::move(v));
    }
  }
  return call;
}

}  // namespace msprobe::ops
