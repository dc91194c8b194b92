#include "msprobe/dump/kernel/mapping_csv.h"

#include <filesystem>

#include "msprobe/dump/text/csv_quote.h"
#include "msprobe/dump/text/csv_reader.h"
#include "msprobe/dump/io/atomic_file.h"
#include "msprobe/dump/io/mapped_file.h"
#include "msprobe/dump/kernel/kernel_dump_name.h"

namespace msprobe {
namespace {

bool IsPlainName(std::string_view s) {
  return !s.empty() && s != "." && s != ".." && s.find('/') == std::string_view::npos &&
         s.find('\0') == std::string_view::npos;
}

Result<std::string> ReadMappingText(const std::string& path) {
  MSP_ASSIGN_OR_RETURN(std::shared_ptr<MappedFile> file, MappedFile::Open(path));
  if (file->size() > kMaxMappingCsvBytes) {
    return Status::InvalidInput(path, "file has " + std::to_string(file->size()) + " bytes, more than " +
                                          std::to_string(kMaxMappingCsvBytes));
  }
  if (file->size() == 0) return std::string();
  MSP_ASSIGN_OR_RETURN(MappedRegion all, file->MapAll());
  return std::string(AsChars(all.bytes()));
}

}  // namespace

Result<KernelDumpMapping> ParseMappingCsv(std::string_view text, const std::string& source) {
  KernelDumpMapping mapping;
  bool first = true;
  MSP_RETURN_IF_ERROR(ReadCsv(
      AsBytes(text), source,
      [&](uint64_t line, std::span<const std::string_view> fields) -> Status {
        if (fields.size() == 3 && fields.back().empty()) fields = fields.first(2);  // a trailing comma
        const bool header_like = fields.size() != 2 || !ParseKernelDumpName(fields[1]).ok();
        if (std::exchange(first, false) && header_like) return Status::Ok();
        const std::string where = "line " + std::to_string(line) + ": ";
        if (fields.size() != 2) {
          return Status::InvalidInput(source, where + "expected 2 fields (new name, original name), got " +
                                                  std::to_string(fields.size()));
        }
        if (!IsPlainName(fields[0]) || !IsPlainName(fields[1])) {
          return Status::InvalidInput(source, where + "names must be plain file names");
        }
        mapping[std::string(fields[0])] = std::string(fields[1]);
        return Status::Ok();
      },
      kMaxCsvFields));
  return mapping;
}

Result<KernelDumpMapping> ReadMappingCsv(const std::string& path) {
  MSP_ASSIGN_OR_RETURN(std::string text, ReadMappingText(path));
  return ParseMappingCsv(text, path);
}

Status AppendMappingCsv(const std::string& path, const std::vector<std::pair<std::string, std::string>>& rows) {
  std::string text;
  KernelDumpMapping have;
  std::error_code ec;
  if (std::filesystem::exists(path, ec)) {
    MSP_ASSIGN_OR_RETURN(text, ReadMappingText(path));
    MSP_ASSIGN_OR_RETURN(have, ParseMappingCsv(text, path));
    if (!text.empty() && text.back() != '\n') text += '\n';
  }
  for (const auto& [new_name, original] : rows) {
    if (!have.emplace(new_name, original).second) continue;
    AppendCsvQuoted(&text, new_name);
    text += ',';
    AppendCsvQuoted(&text, original);
    text += '\n';
  }
  return WriteFileAtomically(path, text);
}

}  // namespace msprobe
