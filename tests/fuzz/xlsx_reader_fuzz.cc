// libFuzzer target: the xlsx reader (zip, inflate, workbook, relationships, shared strings, every sheet).
// Each sheet is read twice, decoding every column and then columns A and C only: a skipped column
// must never change whether the file is accepted, nor any cell beyond dropping a text's bytes.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "msprobe/compare/xlsx/xlsx_reader.h"

namespace {

using msprobe::compare::XlsxCell;

// `skipped` as the reader must give `full` when its column is not decoded.
bool SameAsSkipped(const XlsxCell& full, const XlsxCell& skipped) {
  if (full.type == XlsxCell::Type::kText || full.type == XlsxCell::Type::kError) {
    const bool empty_text = full.type == XlsxCell::Type::kText && full.text.empty();
    return skipped.type == (empty_text ? XlsxCell::Type::kEmpty : full.type) && skipped.text.empty();
  }
  return skipped.type == full.type && std::bit_cast<uint64_t>(skipped.number) == std::bit_cast<uint64_t>(full.number);
}

bool Same(const XlsxCell& a, const XlsxCell& b) {
  return a.type == b.type && a.text == b.text && std::bit_cast<uint64_t>(a.number) == std::bit_cast<uint64_t>(b.number);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const msprobe::Bytes bytes(reinterpret_cast<const std::byte*>(data), size);
  auto reader = msprobe::compare::XlsxReader::Open(bytes, "fuzz.xlsx");
  if (!reader.ok()) return 0;
  const std::vector<bool> decode = {true, false, true};
  for (size_t i = 0; i < reader->sheet_names().size(); ++i) {
    std::vector<std::vector<XlsxCell>> rows;
    const msprobe::Status full = reader->ReadSheet(i, [&](uint32_t, std::span<const XlsxCell> cells) {
      rows.emplace_back(cells.begin(), cells.end());
      return msprobe::Status::Ok();
    });
    size_t r = 0;
    const msprobe::Status partial = reader->ReadSheet(i, [&](uint32_t, std::span<const XlsxCell> cells) {
      if (r >= rows.size() || rows[r].size() != cells.size()) __builtin_trap();
      for (size_t c = 0; c < cells.size(); ++c) {
        const bool decoded = c < decode.size() && decode[c];
        if (decoded ? !Same(rows[r][c], cells[c]) : !SameAsSkipped(rows[r][c], cells[c])) __builtin_trap();
      }
      ++r;
      return msprobe::Status::Ok();
    }, &decode);
    if (r != rows.size() || full.ok() != partial.ok() || full.ToString() != partial.ToString()) __builtin_trap();
  }
  return 0;
}
