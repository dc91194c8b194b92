// One call as a reference sees it: its arguments by position or keyword (torch's signature), typed,
// with errors that name the API and the argument. Every reference validates through it.
#pragma once

#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/ops/args/call_args.h"
#include "msprobe/ops/tensor/tensor_loader.h"

namespace msprobe::ops::internal {

using Outputs = std::vector<Fp64Tensor>;

// A reference's results, moved in. Outputs{t} would copy t whole: an initializer_list's elements are
// const, so the vector copies them (a second pass over every result, and twice its memory).
Outputs OutputsOf(std::same_as<Fp64Tensor> auto... tensors) {
  Outputs out;
  out.reserve(sizeof...(tensors));
  (out.push_back(std::move(tensors)), ...);
  return out;
}

// A parameter of torch's signature: its position (-1 when keyword-only) and name.
struct Param {
  int pos;
  std::string_view name;
};

class OpCall {
 public:
  OpCall(std::string_view api, const CallArgs& args, const InputLoader& load) : api_(api), args_(args), load_(load) {}

  std::string_view api() const { return api_; }
  // Refuses arguments outside the signature: more than `positional` positional ones, unknown keywords.
  Status CheckSignature(size_t positional, std::initializer_list<std::string_view> keywords) const;

  // The argument given at p.pos or as keyword p.name; nullptr when absent. None counts as absent.
  const ArgValue* Find(Param p) const;
  size_t positional_count() const { return args_.args.size(); }
  const ArgValue& positional(size_t i) const { return args_.args[i]; }

  Result<Fp64Tensor> Tensor(Param p) const;                  // required
  Result<std::optional<Fp64Tensor>> OptionalTensor(Param p) const;
  Result<Fp64Tensor> Load(const ArgValue& v, std::string_view what) const;  // v must be a tensor
  Result<const TensorRef*> Ref(Param p) const;               // required tensor, not loaded
  Result<int64_t> Int(Param p, std::optional<int64_t> fallback = std::nullopt) const;
  Result<double> Number(Param p, std::optional<double> fallback = std::nullopt) const;  // int, float or bool
  Result<std::optional<double>> OptionalNumber(Param p) const;
  Result<bool> Bool(Param p, bool fallback) const;
  Result<std::string> String(Param p, std::string fallback) const;
  // An int or a list of ints (`dim`, `normalized_shape`); required (ask Find first when optional).
  Result<std::vector<int64_t>> IntList(Param p) const;
  // The ints from position `first` on: either one list (or torch.Size) or the ints themselves
  // (Tensor.view(2, 3) and Tensor.view((2, 3)) alike), else the keyword `name`.
  Result<std::vector<int64_t>> IntsFrom(size_t first, std::string_view name) const;
  // A float dtype argument (softmax's dtype=): absent, None or a floating dtype; the float64 reference
  // computes the same either way.
  Status CheckFloatDType(Param p) const;

  Status Invalid(const std::string& message) const;
  Status Unsupported(const std::string& message) const;

 private:
  Result<int64_t> AsInt(const ArgValue& v, std::string_view name) const;
  Result<std::vector<int64_t>> AsInts(const ArgValue& v, std::string_view name) const;

  std::string_view api_;
  const CallArgs& args_;
  const InputLoader& load_;
};

}  // namespace msprobe::ops::internal
