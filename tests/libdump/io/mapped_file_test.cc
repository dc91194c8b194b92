#include "msprobe/dump/io/mapped_file.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

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

}  // namespace
}  // namespace msprobe
