#include "msprobe/dump/io/mapped_file.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>

#include "msprobe/dump/util/sanitizers.h"
#include "test_support.h"

namespace msprobe {
namespace {

using msprobe::testing::TempDir;

// A FIFO named as an input once made the reader wait for a writer forever. The alarm turns a
// regression into a failed test instead of a hung one.
TEST(MappedFileTest, FifoIsRefusedWithoutWaiting) {
  TempDir dir;
  const std::string fifo = dir.Path("dump.json");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  ::alarm(10);
  auto file = MappedFile::Open(fifo);
  ::alarm(0);
  EXPECT_STATUS(file, Code::kInvalidInput, "not a regular file");
}

TEST(MappedFileTest, DeviceAndDirectoryAreRefused) {
  EXPECT_STATUS(MappedFile::Open("/dev/zero"), Code::kInvalidInput, "not a regular file");
  TempDir dir;
  EXPECT_STATUS(MappedFile::Open(dir.root().string()), Code::kInvalidInput, "is a directory");
}

TEST(MappedFileTest, RegularFileMapsItsBytes) {
  TempDir dir;
  const std::string path = dir.Path("a.bin");
  msprobe::testing::WriteFile(path, "hello");
  auto file = MappedFile::Open(path);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  EXPECT_EQ((*file)->size(), 5u);
  auto region = (*file)->Map(1, 3);
  ASSERT_TRUE(region.ok());
  const Bytes bytes = region->bytes();
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()), "ell");
}

// Another program truncates an input while we read it: the pages past the new end read as zeros, the
// region reports it, and the process lives.
TEST(MappedFileTest, FileTruncatedUnderTheMappingReadsZerosAndIsNotIntact) {
  TempDir dir;
  const std::string path = dir.Path("big.bin");
  msprobe::testing::WriteFile(path, std::string(1 << 20, '\xab'));
  auto file = MappedFile::Open(path);
  ASSERT_TRUE(file.ok());
  auto region = (*file)->MapAll();
  ASSERT_TRUE(region.ok());
  EXPECT_TRUE(region->Intact().ok());
  std::filesystem::resize_file(path, 4096);
  const volatile unsigned char* bytes = reinterpret_cast<const unsigned char*>(region->bytes().data());
  EXPECT_EQ(bytes[100], 0xab);      // still the file
  EXPECT_EQ(bytes[512 * 1024], 0);  // past the new end: zeros, not SIGBUS
  EXPECT_STATUS(region->Intact(), Code::kIOError, "truncated while it was being read");
  auto other = (*file)->Map(0, 4096);
  ASSERT_TRUE(other.ok());
  EXPECT_TRUE(other->Intact().ok());  // a region that was not hit stays intact
}

// A SIGBUS outside every guarded mapping still ends the process as it would have: by SIGBUS, or
// through the handler installed before ours (AddressSanitizer's reports it and aborts).
TEST(MappedFileTest, SigbusOutsideGuardedMappingsStillEndsTheProcess) {
  TempDir dir;
  const std::string path = dir.Path("raw.bin");
  msprobe::testing::WriteFile(path, std::string(1 << 16, 'x'));
  {
    auto guarded = MappedFile::Open(path);  // a guarded mapping installs the handler
    ASSERT_TRUE(guarded.ok() && (*guarded)->MapAll().ok());
  }
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const int fd = ::open(path.c_str(), O_RDONLY);
    void* raw = ::mmap(nullptr, 1 << 16, PROT_READ, MAP_PRIVATE, fd, 0);
    if (raw == MAP_FAILED || ::ftruncate(::open(path.c_str(), O_WRONLY), 0) != 0) ::_exit(10);
    const volatile char c = static_cast<const char*>(raw)[8192];
    ::_exit(c == 0 ? 11 : 12);  // not reached: the read raises SIGBUS
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status)) << "exit status " << WEXITSTATUS(status);
#if MSPROBE_UNDER_ASAN
  EXPECT_TRUE(WTERMSIG(status) == SIGBUS || WTERMSIG(status) == SIGABRT) << WTERMSIG(status);
#else
  EXPECT_EQ(WTERMSIG(status), SIGBUS);
#endif
}

}  // namespace
}  // namespace msprobe
