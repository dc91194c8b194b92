// A read-only ZIP reader over bytes that trusts only the central directory (torch writes zeros for the
// sizes in local headers, flag bit 3), with ZIP64 support. Stored members are handed out as ranges
// of the input (docs/formats.md §6.2); Inflate streams stored or deflated members (xlsx parts).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/dump/io/byte_cursor.h"
#include "msprobe/dump/util/status.h"

namespace msprobe {

struct ZipEntry {
  std::string name;
  uint16_t method = 0;              // 0 stored, 8 deflated, ...
  uint16_t flags = 0;               // general-purpose bit flags
  uint32_t crc32 = 0;               // of the uncompressed bytes, from the central directory
  uint64_t compressed_size = 0;
  uint64_t uncompressed_size = 0;
  uint64_t local_header_offset = 0;
  uint64_t data_offset = 0;         // local header offset + 30 + name len + extra len (from the LOCAL header)
};

class ZipArchive {
 public:
  // Reads the end-of-central-directory record (ZIP64 when present), the central directory and each
  // entry's local header, which must name the same member (else an entry could point at another
  // member's data). Every offset and size is checked against the size of `file`; `source` names
  // the file in messages. `file` must outlive the archive.
  static Result<ZipArchive> Open(Bytes file, std::string source);

  const std::vector<ZipEntry>& entries() const { return entries_; }
  // The entry called `name`, or nullptr.
  const ZipEntry* Find(std::string_view name) const;
  // The member's bytes as a range of the file. Unsupported for compressed or encrypted members.
  Result<Bytes> Data(const ZipEntry& entry) const;
  // Streams the member's uncompressed bytes (stored or deflated) to `sink` in chunks. Fails when the
  // member would exceed `max_size` bytes (whatever its header declares), when the deflate stream is
  // corrupt or ends early, when the bytes do not have the CRC-32 the directory records (reported
  // after the last chunk; fuzzing builds skip this check, which would stop nearly every mutated input
  // before the parsers behind this reader), and with the first error `sink` returns.
  Status Inflate(const ZipEntry& entry, uint64_t max_size,
                 const std::function<Status(std::string_view chunk)>& sink) const;
  // The whole member as a string, through Inflate.
  Result<std::string> ReadMember(const ZipEntry& entry, uint64_t max_size) const;

 private:
  ZipArchive(Bytes file, std::string source) : file_(file), source_(std::move(source)) {}
  Status ReadCentralDirectory(uint64_t offset, uint64_t size, uint64_t count);
  Status ResolveDataOffset(ZipEntry* entry) const;

  Bytes file_;
  std::string source_;
  std::vector<ZipEntry> entries_;
};

}  // namespace msprobe
