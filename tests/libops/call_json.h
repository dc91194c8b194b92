// dump.json argument objects, as msprobe writes them, for the tests that build a call's arguments.
#pragma once

#include <string>

namespace msprobe::ops {

// A tensor argument of the given shape ("[2, 3]") and dtype, saved as `name`.
inline std::string T(const std::string& shape, const std::string& dtype = "torch.float32",
                     const std::string& name = "x.pt") {
  return R"({"type": "torch.Tensor", "dtype": ")" + dtype + R"(", "shape": )" + shape + R"(, "data_name": ")" + name +
         R"("})";
}

// An int argument.
inline std::string I(int v) { return R"({"type": "int", "value": )" + std::to_string(v) + "}"; }

}  // namespace msprobe::ops
