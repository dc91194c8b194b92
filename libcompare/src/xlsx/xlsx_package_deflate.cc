#include "xlsx/xlsx_package_deflate_internal.h"

#include <dlfcn.h>
#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>
#include <zlib.h>

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <span>
#include <unordered_map>
#include <vector>

namespace msprobe::compare::internal {
namespace {

thread_local bool packaging = false;  // this thread is writing a workbook's package

// One workbook member's raw deflate on ISA-L, in the place of zlib's state. Its input is gathered in
// blocks of kBlock bytes, compressed several at a time on TBB's threads, each on a stream of its own
// primed with the 32 KB of input before it and ended by a sync flush, so that the blocks' output in
// order is one deflate stream (pigz's way with zlib). A member of one block is deflated as one
// stream, as before; a big sheet's deflate, serial at the end of a workbook, shares the cores.
struct IsalDeflate {
  std::vector<uint8_t> pending;     // input not compressed yet, less than a batch
  std::vector<uint8_t> dictionary;  // the last 32 KB of the input compressed so far
  std::vector<uint8_t> output;      // compressed, from `handed` on not handed out yet
  size_t handed = 0;
  bool finished = false;            // the last block is compressed
};

constexpr size_t kBlock = size_t{1} << 20;

// `block`'s raw deflate after `dictionary`: a sync flush at its end, or the end of the stream when
// `last`. Appended to `out`; false if ISA-L fails.
bool DeflateBlock(std::span<const uint8_t> dictionary, std::span<const uint8_t> block, bool last,
                  std::vector<uint8_t>* out) {
  std::vector<uint8_t> level_buf(ISAL_DEF_LVL1_DEFAULT);
  isal_zstream z{};
  isal_deflate_init(&z);
  z.level = 1;
  z.level_buf = level_buf.data();
  z.level_buf_size = static_cast<uint32_t>(level_buf.size());
  z.gzip_flag = IGZIP_DEFLATE;
  if (!dictionary.empty() &&
      isal_deflate_set_dict(&z, const_cast<uint8_t*>(dictionary.data()), static_cast<uint32_t>(dictionary.size())) !=
          COMP_OK) {
    return false;
  }
  z.next_in = const_cast<uint8_t*>(block.data());
  z.avail_in = static_cast<uint32_t>(block.size());
  z.end_of_stream = last ? 1 : 0;
  z.flush = last ? NO_FLUSH : SYNC_FLUSH;
  // Incompressible input grows by a stored block's 5 bytes per 64 KB: one call does, the loop is
  // for ISA-L's own reasons, and stops should a call make no progress.
  for (size_t room = block.size() + block.size() / 64 + 1024;; room *= 2) {
    const size_t at = out->size();
    out->resize(at + room);
    z.next_out = out->data() + at;
    z.avail_out = static_cast<uint32_t>(room);
    const uint32_t in_before = z.total_in, out_before = z.total_out;
    if (isal_deflate(&z) != COMP_OK) return false;
    out->resize(out->size() - z.avail_out);
    // A sync flush is written once the stream waits for a new block's header.
    if (last ? z.internal_state.state == ZSTATE_END : z.avail_in == 0 && z.internal_state.state == ZSTATE_NEW_HDR) {
      return true;
    }
    if (z.total_in == in_before && z.total_out == out_before) return false;
  }
}

// Compresses the pending input's whole blocks but for the last byte, and all of it when `finish`, in
// parallel; false if ISA-L fails. A byte is kept back so that the stream's last block, and with it
// the stream's bytes, do not depend on where a batch happened to end, which depends on the cores.
bool CompressPending(IsalDeflate* d, bool finish) {
  const size_t size = d->pending.size();
  const size_t blocks = finish ? std::max<size_t>((size + kBlock - 1) / kBlock, 1) : (size - 1) / kBlock;
  std::vector<std::vector<uint8_t>> outputs(blocks);
  std::atomic<bool> failed{false};
  // Isolated: while it waits, this thread, deep in minizip with the package's flags set, runs only
  // these blocks, not other work of TBB's.
  tbb::this_task_arena::isolate([&] {
    tbb::parallel_for(size_t{0}, blocks, [&](size_t i) {
      const size_t begin = i * kBlock, end = std::min(size, begin + kBlock);
      const std::span<const uint8_t> input(d->pending);
      const std::span<const uint8_t> dictionary =
          i == 0 ? std::span<const uint8_t>(d->dictionary) : input.subspan(begin - ISAL_DEF_HIST_SIZE, ISAL_DEF_HIST_SIZE);
      const bool last = finish && i + 1 == blocks;
      if (!DeflateBlock(dictionary, input.subspan(begin, end - begin), last, &outputs[i])) failed = true;
    });
  });
  if (failed) return false;
  for (const std::vector<uint8_t>& o : outputs) d->output.insert(d->output.end(), o.begin(), o.end());
  const size_t used = finish ? size : blocks * kBlock;
  if (used > 0) {
    const size_t kept = std::min<size_t>(used, ISAL_DEF_HIST_SIZE);
    d->dictionary.assign(d->pending.begin() + static_cast<std::ptrdiff_t>(used - kept),
                         d->pending.begin() + static_cast<std::ptrdiff_t>(used));
    d->pending.erase(d->pending.begin(), d->pending.begin() + static_cast<std::ptrdiff_t>(used));
  }
  d->finished = finish;
  return true;
}

// Moves compressed bytes to the caller's buffer, as many as fit.
void Hand(IsalDeflate* d, z_streamp stream) {
  const size_t n = std::min<size_t>(d->output.size() - d->handed, stream->avail_out);
  if (n == 0) return;
  std::memcpy(stream->next_out, d->output.data() + d->handed, n);
  d->handed += n;
  stream->next_out += n;
  stream->avail_out -= static_cast<uInt>(n);
  stream->total_out += n;
  if (d->handed == d->output.size()) {
    d->output.clear();
    d->handed = 0;
  }
}

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
  stream->state = Z_NULL;  // zlib refuses the stream (Z_STREAM_ERROR) should a call slip past us
  stream->total_in = stream->total_out = 0;
  stream->msg = Z_NULL;
  try {
    const std::lock_guard<std::mutex> lock(streams_mutex);
    streams[stream] = std::make_unique<IsalDeflate>();
  } catch (const std::bad_alloc&) {  // nothing may unwind through minizip's C
    return Z_MEM_ERROR;
  }
  stream_count.fetch_add(1, std::memory_order_release);
  return Z_OK;
}

// zlib's deflate() on ISA-L: takes all the input, hands out what is compressed as far as it fits,
// and with Z_FINISH ends the stream once its last bytes are out (Z_STREAM_END), as minizip's loops
// expect.
int RunIsal(IsalDeflate* d, z_streamp stream, int flush) {
  if (d->finished && stream->avail_in > 0) return Z_STREAM_ERROR;
  try {
    d->pending.insert(d->pending.end(), stream->next_in, stream->next_in + stream->avail_in);
    stream->next_in += stream->avail_in;
    stream->total_in += stream->avail_in;
    stream->avail_in = 0;
    // A batch keeps every thread busy with a block, and bounds what one member holds.
    const size_t batch =
        kBlock * std::clamp<size_t>(2 * static_cast<size_t>(tbb::this_task_arena::max_concurrency()), 2, 32);
    const bool finish = flush == Z_FINISH && !d->finished;
    if ((finish || d->pending.size() >= batch) && !CompressPending(d, finish)) return Z_STREAM_ERROR;
  } catch (const std::bad_alloc&) {  // nothing may unwind through minizip's C
    return Z_MEM_ERROR;
  }
  Hand(d, stream);
  return d->finished && d->output.empty() ? Z_STREAM_END : Z_OK;
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
