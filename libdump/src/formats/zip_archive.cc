#include "msprobe/dump/formats/zip_archive.h"

#include <fmt/format.h>
#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>

#include <algorithm>
#include <memory>

namespace msprobe {
namespace zip {  // the record signatures and fields of the zip format (PKWARE APPNOTE 4.3)

constexpr uint32_t kLocalHeaderSignature = 0x04034b50;
constexpr uint32_t kCentralHeaderSignature = 0x02014b50;
constexpr uint32_t kEndSignature = 0x06054b50;
constexpr uint32_t kZip64EndSignature = 0x06064b50;
constexpr uint32_t kZip64LocatorSignature = 0x07064b50;
constexpr uint16_t kZip64ExtraId = 0x0001;
constexpr uint16_t kMethodStored = 0;
constexpr uint16_t kMethodDeflate = 8;
constexpr size_t kLocalHeaderSize = 30;  // the fixed part, before name and extra field

}  // namespace zip
namespace {

constexpr uint64_t kEndSize = 22;
constexpr uint64_t kEnd64Size = 56;
constexpr uint64_t kEnd64LocatorSize = 20;
constexpr uint64_t kCentralHeaderSize = 46;
constexpr uint64_t kMaxComment = 0xffff;

// End of central directory, after folding in the ZIP64 record when there is one.
struct EndRecord {
  uint64_t offset = 0;  // of the (classic) EOCD record
  uint32_t disk = 0;
  uint32_t cd_disk = 0;
  uint64_t entries_on_disk = 0;
  uint64_t entries = 0;
  uint64_t cd_size = 0;
  uint64_t cd_offset = 0;
};

// Reads a little-endian field at an absolute offset.
template <class T>
Result<T> FieldAt(ByteCursor* cursor, uint64_t offset) {
  MSP_RETURN_IF_ERROR(cursor->Seek(offset));
  return cursor->LittleEndian<T>();
}

Result<uint64_t> FindEnd(Bytes file, ByteCursor* cursor) {
  const uint64_t size = file.size();
  const uint64_t lowest = size - kEndSize > kMaxComment ? size - kEndSize - kMaxComment : 0;
  for (uint64_t pos = size - kEndSize + 1; pos-- > lowest;) {
    MSP_ASSIGN_OR_RETURN(uint32_t sig, FieldAt<uint32_t>(cursor, pos));
    if (sig != zip::kEndSignature) continue;
    MSP_ASSIGN_OR_RETURN(uint16_t comment, FieldAt<uint16_t>(cursor, pos + 20));
    if (pos + kEndSize + comment <= size) return pos;
  }
  return cursor->Error(fmt::format("end of central directory record not found in the last {} bytes",
                                   size - lowest));
}

Result<EndRecord> ReadEnd(Bytes file, ByteCursor* cursor) {
  EndRecord end;
  MSP_ASSIGN_OR_RETURN(end.offset, FindEnd(file, cursor));
  MSP_RETURN_IF_ERROR(cursor->Seek(end.offset + 4));
  MSP_ASSIGN_OR_RETURN(uint16_t disk, cursor->LittleEndian<uint16_t>());
  MSP_ASSIGN_OR_RETURN(uint16_t cd_disk, cursor->LittleEndian<uint16_t>());
  MSP_ASSIGN_OR_RETURN(uint16_t entries_on_disk, cursor->LittleEndian<uint16_t>());
  MSP_ASSIGN_OR_RETURN(uint16_t entries, cursor->LittleEndian<uint16_t>());
  MSP_ASSIGN_OR_RETURN(uint32_t cd_size, cursor->LittleEndian<uint32_t>());
  MSP_ASSIGN_OR_RETURN(uint32_t cd_offset, cursor->LittleEndian<uint32_t>());
  end.disk = disk;
  end.cd_disk = cd_disk;
  end.entries_on_disk = entries_on_disk;
  end.entries = entries;
  end.cd_size = cd_size;
  end.cd_offset = cd_offset;

  // A ZIP64 locator sits right before the classic record.
  if (end.offset < kEnd64LocatorSize) return end;
  const uint64_t locator = end.offset - kEnd64LocatorSize;
  MSP_ASSIGN_OR_RETURN(uint32_t locator_sig, FieldAt<uint32_t>(cursor, locator));
  if (locator_sig != zip::kZip64LocatorSignature) return end;
  MSP_ASSIGN_OR_RETURN(uint32_t end64_disk, cursor->LittleEndian<uint32_t>());
  MSP_ASSIGN_OR_RETURN(uint64_t end64, cursor->LittleEndian<uint64_t>());
  if (end64_disk != 0) {
    return Status::Unsupported(cursor->source(), fmt::format("zip64 end record is on disk {}; multi-disk "
                                                             "archives are not supported", end64_disk));
  }
  if (end64 > locator || locator - end64 < kEnd64Size) {
    return cursor->Error(fmt::format("zip64 locator at offset {} points to offset {}, which leaves no room "
                                     "for a {}-byte zip64 end record", locator, end64, kEnd64Size));
  }
  MSP_ASSIGN_OR_RETURN(uint32_t end64_sig, FieldAt<uint32_t>(cursor, end64));
  if (end64_sig != zip::kZip64EndSignature) {
    return cursor->Error(fmt::format("zip64 end record at offset {} has signature 0x{:08x}, expected 0x{:08x}",
                                     end64, end64_sig, zip::kZip64EndSignature));
  }
  MSP_RETURN_IF_ERROR(cursor->Seek(end64 + 16));  // skip record size and versions
  MSP_ASSIGN_OR_RETURN(end.disk, cursor->LittleEndian<uint32_t>());
  MSP_ASSIGN_OR_RETURN(end.cd_disk, cursor->LittleEndian<uint32_t>());
  MSP_ASSIGN_OR_RETURN(end.entries_on_disk, cursor->LittleEndian<uint64_t>());
  MSP_ASSIGN_OR_RETURN(end.entries, cursor->LittleEndian<uint64_t>());
  MSP_ASSIGN_OR_RETURN(end.cd_size, cursor->LittleEndian<uint64_t>());
  MSP_ASSIGN_OR_RETURN(end.cd_offset, cursor->LittleEndian<uint64_t>());
  return end;
}

// Replaces the saturated 32-bit fields of `entry` with the values of its zip64 extra field.
Status ApplyZip64Extra(Bytes extra, uint32_t usize32, uint32_t csize32, uint32_t offset32, ZipEntry* entry,
                       const std::string& source) {
  ByteCursor cursor(extra, source);
  while (cursor.Remaining() >= 4) {
    const uint16_t id = cursor.LittleEndian<uint16_t>().value();
    const uint16_t length = cursor.LittleEndian<uint16_t>().value();
    Result<Bytes> body = cursor.Take(length);
    if (!body.ok()) {
      return Status::InvalidInput(source, fmt::format("entry '{}': extra field 0x{:04x} declares {} bytes, "
                                                      "{} left", entry->name, id, length, cursor.Remaining()));
    }
    if (id != zip::kZip64ExtraId) continue;
    ByteCursor fields(*body, source);
    auto next = [&](const char* what, uint64_t* out) -> Status {
      Result<uint64_t> v = fields.LittleEndian<uint64_t>();
      if (!v.ok()) {
        return Status::InvalidInput(source, fmt::format("entry '{}': zip64 extra field of {} bytes lacks the {}",
                                                        entry->name, length, what));
      }
      *out = *v;
      return Status::Ok();
    };
    if (usize32 == 0xffffffffu) MSP_RETURN_IF_ERROR(next("uncompressed size", &entry->uncompressed_size));
    if (csize32 == 0xffffffffu) MSP_RETURN_IF_ERROR(next("compressed size", &entry->compressed_size));
    if (offset32 == 0xffffffffu) MSP_RETURN_IF_ERROR(next("local header offset", &entry->local_header_offset));
    return Status::Ok();
  }
  return Status::Ok();
}

}  // namespace

Result<ZipArchive> ZipArchive::Open(Bytes file, std::string source) {
  ZipArchive archive(file, std::move(source));
  ByteCursor cursor(file, archive.source_);
  if (file.size() < kEndSize) {
    return cursor.Error(fmt::format("file of {} bytes is too small for a zip archive (at least {})",
                                    file.size(), kEndSize));
  }
  MSP_ASSIGN_OR_RETURN(EndRecord end, ReadEnd(file, &cursor));
  if (end.disk != 0 || end.cd_disk != 0 || end.entries_on_disk != end.entries) {
    return Status::Unsupported(archive.source_, fmt::format("multi-disk zip archives are not supported (disk {}, "
                                                            "central directory on disk {})", end.disk, end.cd_disk));
  }
  if (end.cd_offset > file.size() || end.cd_size > file.size() - end.cd_offset) {
    return cursor.Error(fmt::format("central directory of {} bytes at offset {} runs past the end of the file "
                                    "({} bytes)", end.cd_size, end.cd_offset, file.size()));
  }
  if (end.entries > end.cd_size / kCentralHeaderSize) {
    return cursor.Error(fmt::format("end record declares {} entries but the central directory has only {} bytes",
                                    end.entries, end.cd_size));
  }
  MSP_RETURN_IF_ERROR(archive.ReadCentralDirectory(end.cd_offset, end.cd_size, end.entries));
  return archive;
}

Status ZipArchive::ReadCentralDirectory(uint64_t offset, uint64_t size, uint64_t count) {
  // A cursor over the directory alone keeps entries from spilling past it; offsets in its own
  // messages are relative, so errors below add the absolute place.
  ByteCursor cursor(file_.subspan(offset, size), source_);
  entries_.reserve(count);
  for (uint64_t index = 0; index < count; ++index) {
    const uint64_t at = offset + cursor.Offset();
    auto truncated = [&](uint64_t wanted) {
      return Status::InvalidInput(source_, fmt::format("central directory entry {} at offset {} needs {} bytes, "
                                                       "the directory has {} left", index, at, wanted,
                                                       cursor.Remaining()));
    };
    if (cursor.Remaining() < kCentralHeaderSize) return truncated(kCentralHeaderSize);
    const uint32_t sig = cursor.LittleEndian<uint32_t>().value();
    if (sig != zip::kCentralHeaderSignature) {
      return Status::InvalidInput(source_, fmt::format("central directory entry {} at offset {} has signature "
                                                       "0x{:08x}, expected 0x{:08x}", index, at, sig,
                                                       zip::kCentralHeaderSignature));
    }
    ZipEntry entry;
    MSP_RETURN_IF_ERROR(cursor.Skip(4));  // versions made by / needed
    entry.flags = cursor.LittleEndian<uint16_t>().value();
    entry.method = cursor.LittleEndian<uint16_t>().value();
    MSP_RETURN_IF_ERROR(cursor.Skip(4));  // time, date
    entry.crc32 = cursor.LittleEndian<uint32_t>().value();
    const uint32_t csize32 = cursor.LittleEndian<uint32_t>().value();
    const uint32_t usize32 = cursor.LittleEndian<uint32_t>().value();
    const uint16_t name_len = cursor.LittleEndian<uint16_t>().value();
    const uint16_t extra_len = cursor.LittleEndian<uint16_t>().value();
    const uint16_t comment_len = cursor.LittleEndian<uint16_t>().value();
    MSP_RETURN_IF_ERROR(cursor.Skip(8));  // disk start, internal and external attributes
    const uint32_t offset32 = cursor.LittleEndian<uint32_t>().value();
    const uint64_t variable = uint64_t{name_len} + extra_len + comment_len;
    if (cursor.Remaining() < variable) return truncated(kCentralHeaderSize + variable);
    entry.name = std::string(AsChars(cursor.Take(name_len).value()));
    const Bytes extra = cursor.Take(extra_len).value();
    MSP_RETURN_IF_ERROR(cursor.Skip(comment_len));
    entry.compressed_size = csize32;
    entry.uncompressed_size = usize32;
    entry.local_header_offset = offset32;
    MSP_RETURN_IF_ERROR(ApplyZip64Extra(extra, usize32, csize32, offset32, &entry, source_));
    MSP_RETURN_IF_ERROR(ResolveDataOffset(&entry));
    entries_.push_back(std::move(entry));
  }
  return Status::Ok();
}

Status ZipArchive::ResolveDataOffset(ZipEntry* entry) const {
  const uint64_t size = file_.size();
  const uint64_t at = entry->local_header_offset;
  if (at > size || size - at < zip::kLocalHeaderSize) {
    return Status::InvalidInput(source_, fmt::format("entry '{}': local header at offset {} runs past the end of "
                                                     "the file ({} bytes)", entry->name, at, size));
  }
  ByteCursor cursor(file_, source_);
  MSP_RETURN_IF_ERROR(cursor.Seek(at));
  const uint32_t sig = cursor.LittleEndian<uint32_t>().value();
  if (sig != zip::kLocalHeaderSignature) {
    return Status::InvalidInput(source_, fmt::format("entry '{}': local header at offset {} has signature "
                                                     "0x{:08x}, expected 0x{:08x}", entry->name, at, sig,
                                                     zip::kLocalHeaderSignature));
  }
  MSP_RETURN_IF_ERROR(cursor.Seek(at + 26));
  const uint16_t name_len = cursor.LittleEndian<uint16_t>().value();
  const uint16_t extra_len = cursor.LittleEndian<uint16_t>().value();
  MSP_ASSIGN_OR_RETURN(Bytes local_name, cursor.Take(name_len));
  if (AsChars(local_name) != entry->name) {
    return Status::InvalidInput(source_, fmt::format("entry '{}': its local header at offset {} names '{}'",
                                                     entry->name, at, AsChars(local_name)));
  }
  entry->data_offset = at + zip::kLocalHeaderSize + name_len + extra_len;
  if (entry->data_offset > size || entry->compressed_size > size - entry->data_offset) {
    return Status::InvalidInput(source_, fmt::format("entry '{}': {} bytes of data at offset {} run past the end "
                                                     "of the file ({} bytes)", entry->name,
                                                     entry->compressed_size, entry->data_offset, size));
  }
  return Status::Ok();
}

const ZipEntry* ZipArchive::Find(std::string_view name) const {
  auto it = std::find_if(entries_.begin(), entries_.end(), [&](const ZipEntry& e) { return e.name == name; });
  return it == entries_.end() ? nullptr : &*it;
}

Result<Bytes> ZipArchive::Data(const ZipEntry& entry) const {
  if (entry.flags & 0x1) {
    return Status::Unsupported(source_, fmt::format("member '{}' is encrypted", entry.name));
  }
  if (entry.method != zip::kMethodStored) {
    return Status::Unsupported(source_, fmt::format("member '{}' is compressed (method {}); only stored members "
                                                    "can be read", entry.name, entry.method));
  }
  if (entry.compressed_size != entry.uncompressed_size) {
    return Status::InvalidInput(source_, fmt::format("stored member '{}' declares {} compressed and {} "
                                                     "uncompressed bytes", entry.name, entry.compressed_size,
                                                     entry.uncompressed_size));
  }
  return file_.subspan(entry.data_offset, entry.compressed_size);
}

Status ZipArchive::Inflate(const ZipEntry& entry, uint64_t max_size,
                           const std::function<Status(std::string_view chunk)>& sink) const {
  if (entry.flags & 0x1) return Status::Unsupported(source_, fmt::format("member '{}' is encrypted", entry.name));
  if (entry.uncompressed_size > max_size) {
    return Status::InvalidInput(source_, fmt::format("member '{}' declares {} uncompressed bytes, more than the "
                                                     "limit of {}", entry.name, entry.uncompressed_size, max_size));
  }
  const Bytes packed = file_.subspan(entry.data_offset, entry.compressed_size);
  uint32_t crc = 0;
  const auto check_crc = [&]() -> Status {
#ifndef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
    if (crc != entry.crc32) {
      return Status::InvalidInput(source_, fmt::format("member '{}': CRC-32 {:08x} of its bytes, the directory "
                                                       "records {:08x}", entry.name, crc, entry.crc32));
    }
#endif
    return Status::Ok();
  };
  if (entry.method == zip::kMethodStored) {
    MSP_ASSIGN_OR_RETURN(Bytes data, Data(entry));
    MSP_RETURN_IF_ERROR(sink(AsChars(data)));
    crc = crc32_gzip_refl(0, reinterpret_cast<const unsigned char*>(data.data()), data.size());
    return check_crc();
  }
  if (entry.method != zip::kMethodDeflate) {
    return Status::Unsupported(source_, fmt::format("member '{}' uses compression method {}; only stored (0) and "
                                                    "deflated (8) members can be read", entry.name, entry.method));
  }
  // ISA-L's streaming inflate: 2.5x zlib's on xlsx sheets, which merges inflate by the gigabyte.
  // The state is about 40 KB, too large for a TBB worker's stack.
  auto state = std::make_unique<inflate_state>();
  isal_inflate_init(state.get());
  state->crc_flag = ISAL_DEFLATE;  // raw deflate
  constexpr size_t kChunk = 256 * 1024;
  auto out = std::make_unique<char[]>(kChunk);
  uint64_t produced = 0;
  uint64_t consumed = 0;
  const auto corrupt = [&](const std::string& what) {
    return Status::InvalidInput(source_, fmt::format("member '{}': {} after {} of {} compressed bytes", entry.name,
                                                     what, consumed - state->avail_in, packed.size()));
  };
  while (state->block_state != ISAL_BLOCK_FINISH) {
    if (state->avail_in == 0 && consumed < packed.size()) {
      const uint64_t take = std::min<uint64_t>(packed.size() - consumed, 1u << 30);
      state->next_in = const_cast<uint8_t*>(reinterpret_cast<const uint8_t*>(packed.data() + consumed));
      state->avail_in = static_cast<uint32_t>(take);
      consumed += take;
    }
    state->next_out = reinterpret_cast<uint8_t*>(out.get());
    state->avail_out = kChunk;
    const int rc = isal_inflate(state.get());
    if (rc < 0) return corrupt(fmt::format("corrupt deflate data (ISA-L error {})", rc));
    const size_t got = kChunk - state->avail_out;
    produced += got;
    if (produced > max_size) {
      return Status::InvalidInput(source_, fmt::format("member '{}' inflates past the limit of {} bytes",
                                                       entry.name, max_size));
    }
    if (got > 0) {
      MSP_RETURN_IF_ERROR(sink(std::string_view(out.get(), got)));
      crc = crc32_gzip_refl(crc, reinterpret_cast<const unsigned char*>(out.get()), got);
    }
    // All input read, the output not full, and still no final block: nothing more can come.
    if (got < kChunk && state->avail_in == 0 && consumed == packed.size() &&
        state->block_state != ISAL_BLOCK_FINISH) {
      return corrupt("deflate stream ends early");
    }
  }
  return check_crc();
}

Result<std::string> ZipArchive::ReadMember(const ZipEntry& entry, uint64_t max_size) const {
  std::string text;
  text.reserve(std::min<uint64_t>(entry.uncompressed_size, max_size));
  MSP_RETURN_IF_ERROR(Inflate(entry, max_size, [&](std::string_view chunk) {
    text.append(chunk);
    return Status::Ok();
  }));
  return text;
}

}  // namespace msprobe
