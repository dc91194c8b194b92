// Writes a ZIP archive front to back through a sink, never seeking (APPNOTE 6.3.10), for the xlsx
// outputs we stream (xlsx_stream_writer.h). Small members go whole, sizes in the local header. A
// streamed member is a run of raw-deflate pieces made elsewhere, possibly in parallel
// (ChunkDeflater, ISA-L: every piece ends on a full flush and only the last holds the final block, so
// the concatenation is one deflate stream; CRC-32s joined with crc32_combine), closed by a data
// descriptor (flag bit 3). ZIP64 appears only where needed: a streamed member whose caller says it
// may pass 4 GB has a ZIP64 extra in its local header and 8-byte sizes in its descriptor; the
// central directory has a ZIP64 extra holding exactly the fields that overflow, and the ZIP64 end
// records come when the member count, the directory size or its offset overflow.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/dump/status.h"

struct isal_zstream;

namespace msprobe {

inline constexpr uint32_t kZipMax32 = 0xFFFFFFFFu;  // a 32-bit field at this value means "see ZIP64"
inline constexpr uint16_t kZipMax16 = 0xFFFFu;

// What the central directory records of one member.
struct ZipMember {
  std::string name;
  uint16_t flags = 0;               // bit 3: sizes in a data descriptor
  uint32_t crc = 0;
  uint64_t compressed_size = 0;
  uint64_t uncompressed_size = 0;
  uint64_t local_header_offset = 0;
};

// The central directory header of `m`, with a ZIP64 extra holding exactly the fields that overflow.
std::string EncodeZipCentralHeader(const ZipMember& m);

// The end of the archive after a central directory of `count` headers, `size` bytes at `offset`:
// the ZIP64 end record and locator when any of the three overflows its classic field, then the
// classic end record.
std::string EncodeZipEnd(uint64_t count, uint64_t offset, uint64_t size);

// One piece of a raw deflate stream (no zlib header) and the CRC-32 of its input.
struct DeflatedChunk {
  std::string data;
  uint32_t crc = 0;
  uint64_t raw_size = 0;
};

// Compresses pieces of one member with ISA-L at `level` 0 to 3 (1 compresses xlsx sheets better
// than zlib's level 1, four times as fast); keeps its state and work buffer between calls (one per
// thread; the state, about 80 KB, lives on the heap rather than a worker's stack).
class ChunkDeflater {
 public:
  explicit ChunkDeflater(int level = 1);
  ~ChunkDeflater();

  // `raw` as an independent piece; `last` ends the stream, otherwise it ends on a full flush.
  Status Deflate(std::string_view raw, bool last, DeflatedChunk* out);

 private:
  int level_;
  std::unique_ptr<isal_zstream> stream_;
  std::vector<uint8_t> level_buf_;
};

class ZipStreamWriter {
 public:
  using Sink = std::function<Status(std::string_view bytes)>;
  // `source` names the output in messages.
  ZipStreamWriter(Sink sink, std::string source) : sink_(std::move(sink)), source_(std::move(source)) {}

  // A whole member, deflated at ISA-L `level` (sizes and CRC in its local header).
  Status AddDeflated(std::string_view name, std::string_view data, int level = 3);

  // A streamed member: Begin, Append the pieces in order, End. `may_pass_4gb`: the member may
  // reach 4 GB, so its sizes are kept as ZIP64; when false and it does, End fails.
  Status BeginStreamed(std::string_view name, bool may_pass_4gb);
  Status AppendStreamed(const DeflatedChunk& chunk);
  Status EndStreamed();

  // The central directory and end records; the sink has the complete archive afterwards.
  Status Finish();

  uint64_t offset() const { return offset_; }

 private:
  Status Emit(std::string_view bytes);

  Sink sink_;
  std::string source_;
  uint64_t offset_ = 0;
  std::vector<ZipMember> members_;
  bool streaming_ = false;
  bool streaming_zip64_ = false;
  uint32_t crc_ = 0;
};

}  // namespace msprobe
