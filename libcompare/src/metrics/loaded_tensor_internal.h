// One side of a tensor pair as the metrics read it (docs/compare.md §4.2 step 2): a small file held
// in memory, a larger one streamed in bounded windows, or a right_matmul product (step 3) held whole.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "msprobe/dump/tensor/tensor.h"
#include "msprobe/dump/tensor/tensor_source.h"
#include "msprobe/dump/util/status.h"

namespace msprobe::compare::internal {

// np.squeeze: the shape without its size-1 dims (docs/compare.md §6).
std::vector<int64_t> Squeezed(const std::vector<int64_t>& shape);

class LoadedTensor {
 public:
  static Result<LoadedTensor> Load(const std::string& dir, const std::string& data_name);
  // A tensor a reader has already described; streamed from its file.
  static Result<LoadedTensor> FromInfo(TensorInfo info);
  // `values` (each exact in `dtype`, float32 or float64) of an array of `shape`, which the
  // validation takes as it is: a product is not squeezed again.
  static LoadedTensor FromValues(DType dtype, std::vector<int64_t> shape, const std::vector<double>& values);
  // Elements of `dtype` in native byte order, an array of `shape` that the validation takes as it is.
  static LoadedTensor FromBytes(DType dtype, std::vector<int64_t> shape, std::vector<std::byte> bytes);

  const TensorInfo& info() const { return info_; }
  uint64_t numel() const { return numel_; }
  // The shape the validation compares: squeezed when `squeeze`, except a product's.
  std::vector<int64_t> CompareShape(bool squeeze) const;
  // Points *out at elements [first, first + count) in native byte order; `window` holds them if needed.
  Status Read(uint64_t first, uint64_t count, ElementWindow* window, Bytes* out) const {
    if (!source_) {
      const uint64_t item = Info(info_.dtype).bits / 8;
      *out = elements_.subspan(first * item, count * item);
      return Status::Ok();
    }
    MSP_RETURN_IF_ERROR(source_->Read(first, count, window));
    *out = window->bytes();
    return Status::Ok();
  }
  // Every element as a double (bfloat16 and float8 exactly, as the float32 msprobe reads them), those
  // from `zero_from` on as 0. REQUIRES: not complex.
  Result<std::vector<double>> ReadValues(uint64_t zero_from) const;
  // Every element's bytes, in logical order and native byte order. REQUIRES: not int4.
  Result<std::vector<std::byte>> ReadBytes() const;

 private:
  TensorInfo info_;
  uint64_t numel_ = 0;
  bool keep_shape_ = false;  // a product: its shape is final
  std::optional<TensorSource> source_;
  std::vector<std::byte> file_;
  Bytes elements_;
};

}  // namespace msprobe::compare::internal
