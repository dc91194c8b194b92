#include "reference/op_call_internal.h"

#include <fmt/format.h>

#include <algorithm>

namespace msprobe::ops::internal {

Status OpCall::CheckSignature(size_t positional, std::initializer_list<std::string_view> keywords) const {
  if (args_.args.size() > positional) {
    return Invalid(fmt::format("takes at most {} positional arguments, {} given", positional, args_.args.size()));
  }
  for (const auto& [key, value] : args_.kwargs) {
    if (key == "out") return Unsupported("out= is not supported");
    if (std::find(keywords.begin(), keywords.end(), key) == keywords.end()) {
      return Invalid(fmt::format("unexpected keyword argument '{}'", key));
    }
  }
  return Status::Ok();
}

const ArgValue* OpCall::Find(Param p) const {
  const ArgValue* v = nullptr;
  if (p.pos >= 0 && static_cast<size_t>(p.pos) < args_.args.size()) v = &args_.args[static_cast<size_t>(p.pos)];
  if (v == nullptr) v = args_.Kwarg(p.name);
  return v == nullptr || v->IsNone() ? nullptr : v;
}

Result<const TensorRef*> OpCall::Ref(Param p) const {
  const ArgValue* v = Find(p);
  if (v == nullptr) return Invalid(fmt::format("missing tensor argument '{}'", p.name));
  if (v->kind != ArgValue::Kind::kTensor) {
    return Invalid(fmt::format("'{}' must be a tensor, not {}", p.name, KindName(v->kind)));
  }
  return &v->tensor;
}

Result<Fp64Tensor> OpCall::Load(const ArgValue& v, std::string_view what) const {
  if (v.kind != ArgValue::Kind::kTensor) return Invalid(fmt::format("'{}' must be a tensor, not {}", what, KindName(v.kind)));
  if (IsComplex(v.tensor.dtype)) return Unsupported(fmt::format("'{}' is complex", what));
  return load_(v.tensor);
}

Result<Fp64Tensor> OpCall::Tensor(Param p) const {
  MSP_ASSIGN_OR_RETURN(const TensorRef* ref, Ref(p));
  (void)ref;
  return Load(*Find(p), p.name);
}

Result<std::optional<Fp64Tensor>> OpCall::OptionalTensor(Param p) const {
  const ArgValue* v = Find(p);
  if (v == nullptr) return std::optional<Fp64Tensor>();
  MSP_ASSIGN_OR_RETURN(Fp64Tensor t, Load(*v, p.name));
  return std::optional<Fp64Tensor>(std::move(t));
}

Result<int64_t> OpCall::AsInt(const ArgValue& v, std::string_view name) const {
  if (v.kind != ArgValue::Kind::kInt) return Invalid(fmt::format("'{}' must be an int, not {}", name, KindName(v.kind)));
  return v.int_value;
}

Result<int64_t> OpCall::Int(Param p, std::optional<int64_t> fallback) const {
  const ArgValue* v = Find(p);
  if (v != nullptr) return AsInt(*v, p.name);
  if (fallback) return *fallback;
  return Invalid(fmt::format("missing int argument '{}'", p.name));
}

Result<double> OpCall::Number(Param p, std::optional<double> fallback) const {
  MSP_ASSIGN_OR_RETURN(std::optional<double> v, OptionalNumber(p));
  if (v) return *v;
  if (fallback) return *fallback;
  return Invalid(fmt::format("missing number argument '{}'", p.name));
}

Result<std::optional<double>> OpCall::OptionalNumber(Param p) const {
  const ArgValue* v = Find(p);
  if (v == nullptr) return std::optional<double>();
  if (!v->IsNumber()) return Invalid(fmt::format("'{}' must be a number, not {}", p.name, KindName(v->kind)));
  return std::optional<double>(v->float_value);
}

Result<bool> OpCall::Bool(Param p, bool fallback) const {
  const ArgValue* v = Find(p);
  if (v == nullptr) return fallback;
  if (v->kind != ArgValue::Kind::kBool) return Invalid(fmt::format("'{}' must be a bool, not {}", p.name, KindName(v->kind)));
  return v->int_value != 0;
}

Result<std::string> OpCall::String(Param p, std::string fallback) const {
  const ArgValue* v = Find(p);
  if (v == nullptr) return fallback;
  if (v->kind != ArgValue::Kind::kString) return Invalid(fmt::format("'{}' must be a str, not {}", p.name, KindName(v->kind)));
  return v->text;
}

Result<std::vector<int64_t>> OpCall::AsInts(const ArgValue& v, std::string_view name) const {
  if (v.kind == ArgValue::Kind::kInt) return std::vector<int64_t>{v.int_value};
  if (v.kind != ArgValue::Kind::kList) {
    return Invalid(fmt::format("'{}' must be an int or a list of ints, not {}", name, KindName(v.kind)));
  }
  std::vector<int64_t> out;
  for (const ArgValue& item : v.items) {
    MSP_ASSIGN_OR_RETURN(int64_t i, AsInt(item, name));
    out.push_back(i);
  }
  return out;
}

Result<std::vector<int64_t>> OpCall::IntList(Param p) const {
  const ArgValue* v = Find(p);
  if (v == nullptr) return Invalid(fmt::format("missing argument '{}'", p.name));
  return AsInts(*v, p.name);
}

Result<std::vector<int64_t>> OpCall::IntsFrom(size_t first, std::string_view name) const {
  const size_t n = args_.args.size();
  if (n == first + 1 && args_.args[first].kind == ArgValue::Kind::kList) return AsInts(args_.args[first], name);
  if (n <= first) {
    const ArgValue* v = Find({-1, name});
    if (v == nullptr) return Invalid(fmt::format("missing argument '{}'", name));
    return AsInts(*v, name);
  }
  std::vector<int64_t> out;
  for (size_t i = first; i < n; ++i) {
    MSP_ASSIGN_OR_RETURN(int64_t v, AsInt(args_.args[i], name));
    out.push_back(v);
  }
  return out;
}

Status OpCall::CheckFloatDType(Param p) const {
  const ArgValue* v = Find(p);
  if (v == nullptr) return Status::Ok();
  if (v->kind != ArgValue::Kind::kDType) return Invalid(fmt::format("'{}' must be a dtype, not {}", p.name, KindName(v->kind)));
  const std::optional<DType> t = FromTorchName(v->text);
  if (!t || !IsFloating(*t)) return Unsupported(fmt::format("'{}' = {} (only floating dtypes)", p.name, v->text));
  return Status::Ok();
}

Status OpCall::Invalid(const std::string& message) const { return Status::InvalidInput(std::string(api_), message); }
Status OpCall::Unsupported(const std::string& message) const { return Status::Unsupported(std::string(api_), message); }

}  // namespace msprobe::ops::internal
