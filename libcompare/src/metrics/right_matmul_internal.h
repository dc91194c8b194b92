// The right_matmul product itself (docs/compare.md §4.2 step 3): numpy arrays as msprobe holds them
// after loading, np.matmul on them in numpy's summation order, and its application to a loaded tensor.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "metrics/loaded_tensor_internal.h"
#include "metrics/numpy_types_internal.h"
#include "msprobe/compare/metrics/right_matmul.h"

namespace msprobe::compare {

namespace internal {

// An array's values, each exact in `type`.
struct NumpyArray {
  ScalarType type;
  std::vector<int64_t> shape;
  std::vector<double> values;
};

}  // namespace internal

struct RightMatmul::Calibration {
  std::string path;
  Result<internal::NumpyArray> array = Status::Internal("", "not loaded");
};

namespace internal {

// np.matmul(*value, mat) into *value: a calibration of one or two dimensions, the product in numpy's
// promoted type, each element summed over k from the first in that type (as numpy's own loop and the
// reference BLAS do), which must be float32 or float64. InvalidInput/Unsupported naming why not:
// *value is then unchanged.
Status RightMultiply(const NumpyArray& mat, NumpyArray* value);

// `tensor` multiplied by every calibration of its `data_name` on its side, as msprobe reads it
// (squeezed when `squeeze`, the elements from `zero_from` on zeroed): the product, or nullopt when no
// calibration applies or none could be used (noted in `rm`). An error when the tensor cannot be read.
Result<std::optional<LoadedTensor>> ApplyRightMatmul(const RightMatmul& rm, bool target, const std::string& data_name,
                                                     const LoadedTensor& tensor, bool squeeze, uint64_t zero_from);

}  // namespace internal
}  // namespace msprobe::compare
