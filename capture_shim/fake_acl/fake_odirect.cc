// Fault knob FAKE_ACL_ODIRECT for the shim's O_DIRECT writes, by interposing open() and pwrite() for the
// whole process (this library comes before libc in the lookup order; without the knob both forward):
//   refuse  open() with O_DIRECT fails with EINVAL, as on filesystems without direct I/O
//   fail    the first pwrite() on an O_DIRECT fd works, every later one fails with EIO
// The interposers must be plain functions, not glibc's fortified inline open().
#undef _FORTIFY_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdarg>
#include <cstdlib>
#include <cstring>

namespace {

int Mode() {  // 0 off, 1 refuse, 2 fail; read once
  static const int mode = [] {
    const char* v = std::getenv("FAKE_ACL_ODIRECT");
    if (v == nullptr) return 0;
    return std::strcmp(v, "refuse") == 0 ? 1 : std::strcmp(v, "fail") == 0 ? 2 : 0;
  }();
  return mode;
}

template <typename F>
F Next(const char* name) {
  return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}

}  // namespace

extern "C" {

int open(const char* path, int flags, ...) {
  mode_t mode = 0;
  if (flags & (O_CREAT | O_TMPFILE)) {
    va_list ap;
    va_start(ap, flags);
    mode = static_cast<mode_t>(va_arg(ap, int));
    va_end(ap);
  }
  if ((flags & O_DIRECT) && Mode() == 1) {
    errno = EINVAL;
    return -1;
  }
  static const auto real = Next<int (*)(const char*, int, ...)>("open");
  return real(path, flags, mode);
}

ssize_t pwrite(int fd, const void* buf, size_t count, off_t offset) {
  if (Mode() == 2 && (fcntl(fd, F_GETFL) & O_DIRECT)) {
    static std::atomic<int> calls{0};
    if (calls.fetch_add(1) > 0) {
      errno = EIO;
      return -1;
    }
  }
  static const auto real = Next<ssize_t (*)(int, const void*, size_t, off_t)>("pwrite");
  return real(fd, buf, count, offset);
}

}  // extern "C"
