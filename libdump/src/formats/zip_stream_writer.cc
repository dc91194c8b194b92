#include "msprobe/dump/formats/zip_stream_writer.h"

#include <fmt/format.h>
#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>
#include <zlib.h>  // crc32_combine

#include <algorithm>
#include <climits>

#include "formats/zip_format_internal.h"

namespace msprobe {
namespace {

constexpr uint16_t kVersion20 = 20;     // deflate
constexpr uint16_t kVersion45 = 45;     // ZIP64
constexpr uint16_t kFlagDescriptor = 0x0008;
constexpr uint16_t kDosTime = 0;        // 00:00:00
constexpr uint16_t kDosDate = 0x0021;   // 1980-01-01: outputs do not depend on the clock

// Little-endian field writers.
void Put16(std::string* out, uint16_t v) {
  out->push_back(static_cast<char>(v & 0xff));
  out->push_back(static_cast<char>(v >> 8));
}
void Put32(std::string* out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
void Put64(std::string* out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

bool Overflows32(uint64_t v) { return v >= kZipMax32; }

// The fixed part of a local header up to the name and extra lengths.
std::string LocalHeader(std::string_view name, uint16_t version, uint16_t flags, uint32_t crc, uint32_t compressed,
                        uint32_t uncompressed, uint16_t extra_size) {
  std::string h;
  h.reserve(zip::kLocalHeaderSize + name.size() + extra_size);
  Put32(&h, zip::kLocalHeaderSignature);
  Put16(&h, version);
  Put16(&h, flags);
  Put16(&h, zip::kMethodDeflate);
  Put16(&h, kDosTime);
  Put16(&h, kDosDate);
  Put32(&h, crc);
  Put32(&h, compressed);
  Put32(&h, uncompressed);
  Put16(&h, static_cast<uint16_t>(name.size()));
  Put16(&h, extra_size);
  h.append(name);
  return h;
}

}  // namespace

std::string EncodeZipCentralHeader(const ZipMember& m) {
  std::string extra;
  if (Overflows32(m.uncompressed_size)) Put64(&extra, m.uncompressed_size);
  if (Overflows32(m.compressed_size)) Put64(&extra, m.compressed_size);
  if (Overflows32(m.local_header_offset)) Put64(&extra, m.local_header_offset);
  const uint16_t version = extra.empty() ? kVersion20 : kVersion45;
  std::string h;
  Put32(&h, zip::kCentralHeaderSignature);
  Put16(&h, version);  // made by: MS-DOS attributes
  Put16(&h, version);  // needed to extract
  Put16(&h, m.flags);
  Put16(&h, zip::kMethodDeflate);
  Put16(&h, kDosTime);
  Put16(&h, kDosDate);
  Put32(&h, m.crc);
  Put32(&h, Overflows32(m.compressed_size) ? kZipMax32 : static_cast<uint32_t>(m.compressed_size));
  Put32(&h, Overflows32(m.uncompressed_size) ? kZipMax32 : static_cast<uint32_t>(m.uncompressed_size));
  Put16(&h, static_cast<uint16_t>(m.name.size()));
  Put16(&h, static_cast<uint16_t>(extra.empty() ? 0 : 4 + extra.size()));
  Put16(&h, 0);  // comment
  Put16(&h, 0);  // disk
  Put16(&h, 0);  // internal attributes
  Put32(&h, 0);  // external attributes
  Put32(&h, Overflows32(m.local_header_offset) ? kZipMax32 : static_cast<uint32_t>(m.local_header_offset));
  h.append(m.name);
  if (!extra.empty()) {
    Put16(&h, zip::kZip64ExtraId);
    Put16(&h, static_cast<uint16_t>(extra.size()));
    h.append(extra);
  }
  return h;
}

std::string EncodeZipEnd(uint64_t count, uint64_t offset, uint64_t size) {
  std::string e;
  const bool zip64 = count >= kZipMax16 || Overflows32(offset) || Overflows32(size);
  if (zip64) {
    const uint64_t record_offset = offset + size;  // the ZIP64 end record follows the directory
    Put32(&e, zip::kZip64EndSignature);
    Put64(&e, 44);  // the record's size after this field
    Put16(&e, kVersion45);
    Put16(&e, kVersion45);
    Put32(&e, 0);  // this disk
    Put32(&e, 0);  // the directory's disk
    Put64(&e, count);
    Put64(&e, count);
    Put64(&e, size);
    Put64(&e, offset);
    Put32(&e, zip::kZip64LocatorSignature);
    Put32(&e, 0);
    Put64(&e, record_offset);
    Put32(&e, 1);  // disks
  }
  const uint16_t count16 = count >= kZipMax16 ? kZipMax16 : static_cast<uint16_t>(count);
  Put32(&e, zip::kEndSignature);
  Put16(&e, 0);
  Put16(&e, 0);
  Put16(&e, count16);
  Put16(&e, count16);
  Put32(&e, Overflows32(size) ? kZipMax32 : static_cast<uint32_t>(size));
  Put32(&e, Overflows32(offset) ? kZipMax32 : static_cast<uint32_t>(offset));
  Put16(&e, 0);  // comment
  return e;
}

ChunkDeflater::ChunkDeflater(int level) : level_(level), stream_(std::make_unique<isal_zstream>()) {
  // Levels 1 to 3 need a work buffer for their hash tables; 0 uses none.
  if (level_ == 1) level_buf_.resize(ISAL_DEF_LVL1_DEFAULT);
  if (level_ == 2) level_buf_.resize(ISAL_DEF_LVL2_DEFAULT);
  if (level_ == 3) level_buf_.resize(ISAL_DEF_LVL3_DEFAULT);
}

ChunkDeflater::~ChunkDeflater() = default;

Status ChunkDeflater::Deflate(std::string_view raw, bool last, DeflatedChunk* out) {
  if (level_ < 0 || level_ > 3) return Status::Internal("deflate", fmt::format("no ISA-L level {}", level_));
  if (raw.size() > UINT32_MAX) return Status::Internal("deflate", fmt::format("a {}-byte piece is too large", raw.size()));
  out->raw_size = raw.size();
  out->crc = crc32_gzip_refl(0, reinterpret_cast<const unsigned char*>(raw.data()), raw.size());
  // ISA-L falls back to stored blocks when compression does not pay: at most 5 bytes per 64 KiB
  // block, plus a header. Should it still overflow, grow and compress again (within 4 GiB).
  size_t room = raw.size() + raw.size() / 8192 + 1024;
  for (;;) {
    if (room > UINT32_MAX) return Status::Internal("deflate", fmt::format("a {}-byte piece does not fit", raw.size()));
    out->data.resize(room);
    isal_zstream& stream = *stream_;
    isal_deflate_stateless_init(&stream);
    stream.level = static_cast<uint32_t>(level_);
    stream.level_buf = level_buf_.empty() ? nullptr : level_buf_.data();
    stream.level_buf_size = static_cast<uint32_t>(level_buf_.size());
    stream.next_in = reinterpret_cast<uint8_t*>(const_cast<char*>(raw.data()));
    stream.avail_in = static_cast<uint32_t>(raw.size());
    stream.next_out = reinterpret_cast<uint8_t*>(out->data.data());
    stream.avail_out = static_cast<uint32_t>(room);
    // FULL_FLUSH ends a piece on a byte boundary with no back-references into it, so pieces made
    // apart concatenate into one stream; the last piece carries the final block.
    stream.flush = FULL_FLUSH;
    stream.end_of_stream = last ? 1 : 0;
    const int rc = isal_deflate_stateless(&stream);
    if (rc == COMP_OK) {
      out->data.resize(stream.total_out);
      return Status::Ok();
    }
    if (rc != STATELESS_OVERFLOW) return Status::Internal("deflate", fmt::format("ISA-L deflate failed ({})", rc));
    room *= 2;
  }
}

Status ZipStreamWriter::Emit(std::string_view bytes) {
  MSP_RETURN_IF_ERROR(sink_(bytes));
  offset_ += bytes.size();
  return Status::Ok();
}

Status ZipStreamWriter::AddDeflated(std::string_view name, std::string_view data, int level) {
  if (streaming_) return Status::Internal(source_, "zip: a member is added while another is streamed");
  ChunkDeflater deflater(level);
  DeflatedChunk chunk;
  MSP_RETURN_IF_ERROR(deflater.Deflate(data, true, &chunk));
  if (Overflows32(chunk.data.size()) || Overflows32(data.size())) {
    return Status::Internal(source_, fmt::format("zip: member {} is too large to add whole", name));
  }
  ZipMember m{std::string(name), 0, chunk.crc, chunk.data.size(), data.size(), offset_};
  MSP_RETURN_IF_ERROR(Emit(LocalHeader(name, kVersion20, 0, m.crc, static_cast<uint32_t>(m.compressed_size),
                                       static_cast<uint32_t>(m.uncompressed_size), 0)));
  MSP_RETURN_IF_ERROR(Emit(chunk.data));
  members_.push_back(std::move(m));
  return Status::Ok();
}

Status ZipStreamWriter::BeginStreamed(std::string_view name, bool may_pass_4gb) {
  if (streaming_) return Status::Internal(source_, "zip: a member is begun while another is streamed");
  streaming_ = true;
  streaming_zip64_ = may_pass_4gb;
  crc_ = 0;
  members_.push_back({std::string(name), kFlagDescriptor, 0, 0, 0, offset_});
  if (!may_pass_4gb) return Emit(LocalHeader(name, kVersion20, kFlagDescriptor, 0, 0, 0, 0));
  // Sizes "in the ZIP64 extra", which holds zeros until the descriptor (8-byte sizes) says more.
  std::string h = LocalHeader(name, kVersion45, kFlagDescriptor, 0, kZipMax32, kZipMax32, 20);
  Put16(&h, zip::kZip64ExtraId);
  Put16(&h, 16);
  Put64(&h, 0);
  Put64(&h, 0);
  return Emit(h);
}

Status ZipStreamWriter::AppendStreamed(const DeflatedChunk& chunk) {
  if (!streaming_) return Status::Internal(source_, "zip: no member is being streamed");
  MSP_RETURN_IF_ERROR(Emit(chunk.data));
  ZipMember& m = members_.back();
  crc_ = static_cast<uint32_t>(crc32_combine(crc_, chunk.crc, static_cast<z_off_t>(chunk.raw_size)));
  m.compressed_size += chunk.data.size();
  m.uncompressed_size += chunk.raw_size;
  return Status::Ok();
}

Status ZipStreamWriter::EndStreamed() {
  if (!streaming_) return Status::Internal(source_, "zip: no member is being streamed");
  streaming_ = false;
  ZipMember& m = members_.back();
  m.crc = crc_;
  if (!streaming_zip64_ && (Overflows32(m.compressed_size) || Overflows32(m.uncompressed_size))) {
    return Status::Internal(source_, fmt::format("zip: member {} reached {} bytes but was begun without ZIP64",
                                                 m.name, m.uncompressed_size));
  }
  std::string d;
  Put32(&d, zip::kDataDescriptorSignature);
  Put32(&d, m.crc);
  if (streaming_zip64_) {
    Put64(&d, m.compressed_size);
    Put64(&d, m.uncompressed_size);
  } else {
    Put32(&d, static_cast<uint32_t>(m.compressed_size));
    Put32(&d, static_cast<uint32_t>(m.uncompressed_size));
  }
  return Emit(d);
}

Status ZipStreamWriter::Finish() {
  if (streaming_) return Status::Internal(source_, "zip: finished while a member is streamed");
  const uint64_t directory_offset = offset_;
  std::string directory;
  for (const ZipMember& m : members_) directory += EncodeZipCentralHeader(m);
  MSP_RETURN_IF_ERROR(Emit(directory));
  return Emit(EncodeZipEnd(members_.size(), directory_offset, directory.size()));
}

}  // namespace msprobe
