// A table's rows rendered by an output format before they reach its file: the rows' bytes one after
// the other and each row's size. A statistics slice renders its rows where it compares them and its
// owner appends the bytes (docs/distributed.md §3.1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace msprobe {
class Decoder;  // msprobe/dump/util/coding.h
}  // namespace msprobe

namespace msprobe::compare {

struct RenderedRows {
  std::string bytes;
  std::vector<uint32_t> row_sizes;

  size_t rows() const { return row_sizes.size(); }
  void Append(const RenderedRows& more) {
    bytes += more.bytes;
    row_sizes.insert(row_sizes.end(), more.row_sizes.begin(), more.row_sizes.end());
  }
};

// Rendered rows in a message between processes (coding.h): their bytes, then each row's size. Get
// fails when the sizes do not add up to the bytes.
void PutRenderedRows(std::string* dst, const RenderedRows& rows);
[[nodiscard]] bool GetRenderedRows(Decoder* in, RenderedRows* rows);

}  // namespace msprobe::compare
