#include "msprobe/dump/text/text_file.h"

#include <fmt/format.h>

#include "msprobe/dump/io/byte_cursor.h"
#include "msprobe/dump/io/mapped_file.h"
#include "msprobe/dump/text/utf8.h"

namespace msprobe {

Result<std::string> ReadUtf8TextFile(const std::string& path) {
  MSP_ASSIGN_OR_RETURN(auto file, MappedFile::Open(path));
  if (file->size() == 0) return std::string();
  MSP_ASSIGN_OR_RETURN(MappedRegion region, file->MapAll());
  std::string text(AsChars(region.bytes()));
  if (const auto bad = FindInvalidUtf8(text)) {
    return Status::InvalidInput(path, fmt::format("invalid UTF-8 at byte {}", *bad));
  }
  return text;
}

}  // namespace msprobe
