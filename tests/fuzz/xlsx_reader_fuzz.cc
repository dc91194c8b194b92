// libFuzzer target: the xlsx reader (zip, inflate, workbook, relationships, shared strings, every sheet).
#include <cstddef>
#include <cstdint>

#include "msprobe/compare/xlsx_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const msprobe::Bytes bytes(reinterpret_cast<const std::byte*>(data), size);
  auto reader = msprobe::compare::XlsxReader::Open(bytes, "fuzz.xlsx");
  if (!reader.ok()) return 0;
  for (size_t i = 0; i < reader->sheet_names().size(); ++i) {
    (void)reader->ReadSheet(i, [](uint32_t, std::span<const msprobe::compare::XlsxCell>) { return msprobe::Status::Ok(); });
  }
  return 0;
}
