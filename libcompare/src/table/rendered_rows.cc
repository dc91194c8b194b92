#include "msprobe/compare/table/rendered_rows.h"

#include "msprobe/dump/util/coding.h"

namespace msprobe::compare {

void PutRenderedRows(std::string* dst, const RenderedRows& rows) {
  PutString(dst, rows.bytes);
  PutVector(dst, rows.row_sizes, PutVarint32);
}

bool GetRenderedRows(Decoder* in, RenderedRows* rows) {
  if (!GetString(in, &rows->bytes) || !GetVector(in, &rows->row_sizes, GetVarint32)) return false;
  uint64_t sum = 0;
  for (const uint32_t size : rows->row_sizes) sum += size;
  if (sum != rows->bytes.size()) {
    return in->Fail("rows of " + std::to_string(sum) + " bytes in all, " + std::to_string(rows->bytes.size()) + " given");
  }
  return true;
}

}  // namespace msprobe::compare
