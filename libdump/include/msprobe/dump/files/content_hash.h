// A tensor file's content as one number: two files hash equal when they hold the same dtype, shape
// and element bytes in logical order, whatever their container (.pt view or .npy). Lets
// `--attribute` tell that an API's input is an earlier API's output (docs/ops.md §7).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "msprobe/dump/tensor/dtype.h"
#include "msprobe/dump/io/byte_cursor.h"
#include "msprobe/dump/util/status.h"

namespace msprobe {

// CRC-64 (ECMA, reflected) of the element bytes, seeded with the dtype and shape.
Result<uint64_t> TensorContentHash(const std::string& path);

// The same hash of elements a caller reads itself (the tensor compare hashes while it streams):
// Add every element's bytes, in logical order and native byte order, then value().
class ContentHasher {
 public:
  ContentHasher(DType dtype, const std::vector<int64_t>& shape);
  void Add(Bytes elements);
  uint64_t value() const { return crc_; }

 private:
  uint64_t crc_ = 0;
};

}  // namespace msprobe
