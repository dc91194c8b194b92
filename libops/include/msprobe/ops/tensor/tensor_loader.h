// Fetches an input tensor's values as float64. The decoding is libdump's (TensorSource, VisitDType,
// ToDouble): every real dtype it reads, strided views included. Complex and int4 are refused: no
// reference takes them.
#pragma once

#include <functional>
#include <string>

#include "msprobe/dump/util/status.h"
#include "msprobe/ops/args/call_args.h"
#include "msprobe/ops/tensor/fp64_tensor.h"

namespace msprobe::ops {

using InputLoader = std::function<Result<Fp64Tensor>(const TensorRef&)>;

// Whether tensors of `dtype` load as float64 at all: complex and int4 do not.
bool LoadsAsFp64(DType dtype);

// The values of the .pt/.npy file at `path`, in logical C order.
Result<Fp64Tensor> LoadFp64Tensor(const std::string& path);

// A loader reading `data_name` files from `tensor_dir` (a dump's dump_tensor_data/). It refuses a
// tensor without data_name, and a file whose shape differs from the recorded one.
InputLoader DirectoryLoader(std::string tensor_dir);

}  // namespace msprobe::ops
