// mapping.csv of kernel dump directories (docs/kernel_dump.md §4.4), read and written here: rows
// "new,original" mapping a hashed file name (kernel_dump_name.h) back to the name too long to create.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "msprobe/dump/util/status.h"

namespace msprobe {

// The largest mapping.csv read (a hostile file must not cost more than that).
inline constexpr uint64_t kMaxMappingCsvBytes = uint64_t{256} << 20;

// On-disk name → original name, both basenames.
using KernelDumpMapping = std::unordered_map<std::string, std::string>;

// Rows "new,original", no header (an optional first row that does not map to a kernel dump name is
// skipped; a row may end in a comma). InvalidInput naming the line for a row that is not two fields
// or names a path.
Result<KernelDumpMapping> ParseMappingCsv(std::string_view text, const std::string& source);
Result<KernelDumpMapping> ReadMappingCsv(const std::string& path);

// Adds `rows` (new, original) to the mapping.csv at `path`, keeping what it holds and leaving out rows
// whose new name it maps already (reruns write the same hashed names), committed atomically. Fields
// are quoted as Python's csv module does, so each reads back as written.
Status AppendMappingCsv(const std::string& path, const std::vector<std::pair<std::string, std::string>>& rows);

}  // namespace msprobe
