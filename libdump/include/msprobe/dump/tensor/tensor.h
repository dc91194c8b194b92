// A tensor stored in a file: its dtype, shape, element strides and where its storage lies. Readers
// (npy, pt, bin) produce a TensorInfo after validating it; TensorSource streams its elements.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "msprobe/dump/tensor/dtype.h"
#include "msprobe/dump/util/status.h"

namespace msprobe {

struct TensorInfo {
  DType dtype = DType::kF32;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;   // in elements, one per dim; empty means C-contiguous
  bool big_endian = false;        // stored byte order ('>' npy descr, torch byteorder "big")
  std::string path;               // the file holding the storage
  uint64_t data_offset = 0;       // byte offset of storage element 0 in the file
  uint64_t storage_elements = 0;  // elements the storage holds from data_offset
  int64_t storage_offset = 0;     // first element of the tensor inside the storage
  bool requires_grad = false;     // recorded by .pt files

  uint64_t Numel() const;
  bool IsContiguous() const;      // C order, no gaps (strides empty or equal to the C strides)
  std::string ShapeString() const;  // "[2, 3]", "[]" for 0-d
};

// C-order strides of `shape`.
std::vector<int64_t> ContiguousStrides(const std::vector<int64_t>& shape);

// Checks that the shape is non-negative, its element count does not overflow, and every element the
// shape and strides address lies inside the storage. `source` names the file in messages.
Status ValidateExtent(const TensorInfo& t, const std::string& source);

}  // namespace msprobe
