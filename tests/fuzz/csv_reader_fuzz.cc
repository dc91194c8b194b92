// Fuzzes the csv reader behind msprobe-merge: every byte of every field it hands out is read (ASan
// checks the views), and no field is longer than the input.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string_view>

#include "msprobe/dump/text/csv_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto bytes = std::as_bytes(std::span(data, size));
  volatile unsigned sum = 0;
  (void)msprobe::ReadCsv(bytes, "result.csv", [&](uint64_t, std::span<const std::string_view> fields) {
    for (std::string_view f : fields) {
      if (f.size() > size) std::abort();
      for (char c : f) sum = sum + static_cast<unsigned char>(c);
    }
    return msprobe::Status::Ok();
  });
  return 0;
}
