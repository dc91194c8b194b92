// The recorded arguments of one API call (formats.md §1.3, §1.4, §1.6) in a typed form: tensor
// references, scalars with their recorded type, strings, dtypes, lists and None. Strict: any form the
// reference implementations could misread (dicts, slices, devices, the `{}` of an unrecorded object)
// is refused as Unsupported with the reason, never guessed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "msprobe/dump/text/json_file.h"
#include "msprobe/dump/util/status.h"
#include "msprobe/dump/tensor/dtype.h"

namespace msprobe::ops {

// A tensor object of dump.json: what the reference needs to fetch and check it.
struct TensorRef {
  std::string type;                      // "torch.Tensor", "numpy.ndarray", ...
  DType dtype = DType::kF32;
  std::vector<int64_t> shape;
  std::optional<std::string> data_name;  // absent when the tensor was not saved
  std::string path;                      // where in the entry: "input_args.0", "input_kwargs.bias"
};

struct ArgValue {
  enum class Kind : uint8_t { kNone, kTensor, kInt, kFloat, kBool, kString, kDType, kList };
  Kind kind = Kind::kNone;
  std::string recorded_type;   // the "type" as written: "int", "float64", "torch.Size", "" for null/lists
  int64_t int_value = 0;       // kInt, and kBool as 0/1
  double float_value = 0;      // kFloat, kInt and kBool as double
  std::string text;            // kString: the value; kDType: the dtype name ("torch.float32")
  TensorRef tensor;            // kTensor
  std::vector<ArgValue> items; // kList (JSON arrays and torch.Size)

  bool IsNone() const { return kind == Kind::kNone; }
  bool IsNumber() const { return kind == Kind::kInt || kind == Kind::kFloat || kind == Kind::kBool; }
};

std::string_view KindName(ArgValue::Kind kind);

struct CallArgs {
  std::vector<ArgValue> args;                             // input_args
  std::vector<std::pair<std::string, ArgValue>> kwargs;  // input_kwargs, in recorded order
  std::vector<ArgValue> outputs;                          // output (a tuple output is its items)

  const ArgValue* Kwarg(std::string_view name) const;
};

// Parses a dump.json entry value (the object under "Functional.linear.0.forward"). `source` names the
// entry in messages. Forward entries only: a backward entry has no input_args.
Result<CallArgs> ParseCallArgs(const JsonValue& entry, const std::string& source);

}  // namespace msprobe::ops
