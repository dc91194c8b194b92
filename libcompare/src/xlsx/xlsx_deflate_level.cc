#include "xlsx/xlsx_deflate_level_internal.h"

#include <dlfcn.h>
#include <zlib.h>

namespace msprobe::compare::internal {
namespace {

thread_local int xlsx_level = Z_DEFAULT_COMPRESSION;  // Z_DEFAULT_COMPRESSION: no override

}  // namespace

XlsxDeflateLevel::XlsxDeflateLevel(int level) : previous_(xlsx_level) { xlsx_level = level; }
XlsxDeflateLevel::~XlsxDeflateLevel() { xlsx_level = previous_; }

}  // namespace msprobe::compare::internal

// zlib's own entry point, which deflateInit2() expands to and minizip calls; defined in the program,
// it comes before libz.so's for every library the program loads.
extern "C" int deflateInit2_(z_streamp stream, int level, int method, int window_bits, int mem_level, int strategy,
                             const char* version, int stream_size) {
  using Init = int (*)(z_streamp, int, int, int, int, int, const char*, int);
  static const Init real = reinterpret_cast<Init>(dlsym(RTLD_NEXT, "deflateInit2_"));
  if (real == nullptr) return Z_VERSION_ERROR;
  if (level == Z_DEFAULT_COMPRESSION) level = msprobe::compare::internal::xlsx_level;
  return real(stream, level, method, window_bits, mem_level, strategy, version, stream_size);
}
