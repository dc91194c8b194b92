#include "xlsx/xlsx_package_deflate_internal.h"

#include <dlfcn.h>
#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>
#include <zlib.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace msprobe::compare::internal {
namespace {

thread_local bool packaging = false;  // this thread is writing a workbook's package

// One workbook member's raw deflate on ISA-L, in the place of zlib's state.
struct IsalDeflate {
  isal_zstream stream{};
  std::vector<uint8_t> level_buf = std::vector<uint8_t>(ISAL_DEF_LVL1_DEFAULT);
};

// The streams we run, by the z_stream minizip holds; deflate() of any other goes to zlib. The count
// spares zlib's own callers the lock when no workbook is being packed.
std::mutex streams_mutex;
std::unordered_map<z_streamp, std::unique_ptr<IsalDeflate>> streams;
std::atomic<size_t> stream_count{0};

IsalDeflate* Find(z_streamp stream) {
  if (stream_count.load(std::memory_order_acquire) == 0) return nullptr;
  const std::lock_guard<std::mutex> lock(streams_mutex);
  const auto it = streams.find(stream);
  return it == streams.end() ? nullptr : it->second.get();
}

template <typename Fn>
Fn Real(const char* name) {
  return reinterpret_cast<Fn>(dlsym(RTLD_NEXT, name));
}

int StartIsal(z_streamp stream) {
  auto d = std::make_unique<IsalDeflate>();
  isal_deflate_init(&d->stream);
  d->stream.level = 1;
  d->stream.level_buf = d->level_buf.data();
  d->stream.level_buf_size = static_cast<uint32_t>(d->level_buf.size());
  d->stream.gzip_flag = IGZIP_DEFLATE;
  stream->state = Z_NULL;  // zlib refuses the stream (Z_STREAM_ERROR) should a call slip past us
  stream->total_in = stream->total_out = 0;
  stream->msg = Z_NULL;
  const std::lock_guard<std::mutex> lock(streams_mutex);
  streams[stream] = std::move(d);
  stream_count.fetch_add(1, std::memory_order_release);
  return Z_OK;
}

// zlib's deflate() on ISA-L: consumes what fits, and with Z_FINISH ends the stream once its last
// bytes fit (Z_STREAM_END), as minizip's loops expect.
int RunIsal(IsalDeflate* d, z_streamp stream, int flush) {
  isal_zstream& z = d->stream;
  z.next_in = stream->next_in;
  z.avail_in = stream->avail_in;
  z.next_out = stream->next_out;
  z.avail_out = stream->avail_out;
  z.end_of_stream = flush == Z_FINISH ? 1 : 0;
  z.flush = NO_FLUSH;
  if (isal_deflate(&z) != COMP_OK) return Z_STREAM_ERROR;
  stream->total_in += stream->avail_in - z.avail_in;
  stream->total_out += stream->avail_out - z.avail_out;
  stream->next_in = z.next_in;
  stream->avail_in = z.avail_in;
  stream->next_out = z.next_out;
  stream->avail_out = z.avail_out;
  return flush == Z_FINISH && z.internal_state.state == ZSTATE_END ? Z_STREAM_END : Z_OK;
}

// Drops `stream` if it is ours; false if it is zlib's.
bool EndIsal(z_streamp stream) {
  if (stream_count.load(std::memory_order_acquire) == 0) return false;
  const std::lock_guard<std::mutex> lock(streams_mutex);
  if (streams.erase(stream) == 0) return false;
  stream_count.fetch_sub(1, std::memory_order_release);
  return true;
}

}  // namespace

XlsxPackageDeflate::XlsxPackageDeflate() : previous_(packaging) { packaging = true; }
XlsxPackageDeflate::~XlsxPackageDeflate() { packaging = previous_; }

}  // namespace msprobe::compare::internal

// zlib's own entry points, which deflateInit2(), deflate() and deflateEnd() are and minizip calls;
// defined in the program, they come before libz.so's for every library the program loads.
extern "C" int deflateInit2_(z_streamp stream, int level, int method, int window_bits, int mem_level, int strategy,
                             const char* version, int stream_size) {
  using Init = int (*)(z_streamp, int, int, int, int, int, const char*, int);
  static const Init real = msprobe::compare::internal::Real<Init>("deflateInit2_");
  if (real == nullptr) return Z_VERSION_ERROR;
  // minizip's member: a raw deflate (negative window bits) at the default level.
  if (msprobe::compare::internal::packaging && stream != Z_NULL && level == Z_DEFAULT_COMPRESSION &&
      method == Z_DEFLATED && window_bits < 0) {
    return msprobe::compare::internal::StartIsal(stream);
  }
  return real(stream, level, method, window_bits, mem_level, strategy, version, stream_size);
}

extern "C" int deflate(z_streamp stream, int flush) {
  using Deflate = int (*)(z_streamp, int);
  static const Deflate real = msprobe::compare::internal::Real<Deflate>("deflate");
  if (msprobe::compare::internal::IsalDeflate* d = msprobe::compare::internal::Find(stream)) {
    return msprobe::compare::internal::RunIsal(d, stream, flush);
  }
  return real == nullptr ? Z_STREAM_ERROR : real(stream, flush);
}

extern "C" int deflateEnd(z_streamp stream) {
  using End = int (*)(z_streamp);
  static const End real = msprobe::compare::internal::Real<End>("deflateEnd");
  if (msprobe::compare::internal::EndIsal(stream)) return Z_OK;
  return real == nullptr ? Z_STREAM_ERROR : real(stream);
}

// minizip's CRC-32 of each member: the same reflected CRC-32 as zlib's (docs/compatibility.md), by
// ISA-L's carry-less multiply on the packaging thread, zlib's elsewhere. The value is the same either
// way, so ISA-L's also stands in should zlib's not be found (our own md5 column hashes through here).
extern "C" uLong crc32(uLong crc, const Bytef* buf, uInt len) {
  using Crc32 = uLong (*)(uLong, const Bytef*, uInt);
  static const Crc32 real = msprobe::compare::internal::Real<Crc32>("crc32");
  if (buf == Z_NULL) return 0;  // zlib's initial value, whatever `crc`
  if (msprobe::compare::internal::packaging || real == nullptr) {
    return crc32_gzip_refl(static_cast<uint32_t>(crc), buf, len);
  }
  return real(crc, buf, len);
}
