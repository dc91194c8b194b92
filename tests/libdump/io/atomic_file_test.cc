#include "msprobe/dump/io/atomic_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include "test_support.h"

namespace msprobe {
namespace {

using msprobe::testing::ReadFile;
using msprobe::testing::TempDir;

// `size` bytes that differ from one 4 KiB block to the next, so a block written twice or dropped shows.
std::string Pattern(size_t size) {
  std::string s(size, '\0');
  for (size_t i = 0; i < size; ++i) s[i] = static_cast<char>('a' + (i / 4093 + i) % 26);
  return s;
}

// Writes `data` in pieces of `piece` bytes into the emptied `dir` and checks the file holds exactly
// it, and that nothing else is left.
void WriteAndCheck(const std::filesystem::path& dir, const std::string& data, size_t piece) {
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "out.bin").string();
  auto file = AtomicFile::Create(path);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  for (size_t at = 0; at < data.size(); at += piece) {
    ASSERT_TRUE(file->Write(std::string_view(data).substr(at, piece)).ok());
  }
  EXPECT_FALSE(std::filesystem::exists(path));  // not under its final name before the commit
  ASSERT_TRUE(file->Commit().ok());
  EXPECT_EQ(std::filesystem::file_size(path), data.size());
  EXPECT_TRUE(ReadFile(path) == data) << "contents differ for " << data.size() << " bytes";
  size_t entries = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++entries;
  EXPECT_EQ(entries, 1u);  // the temporary name is gone
}

// Sizes around the buffer: the tail goes through the page cache, whole buffers (where the file
// system allows) around it.
TEST(AtomicFile, EverySizeComesOutWhole) {
  constexpr size_t kBuf = AtomicFile::kBufferBytes;
  TempDir dir;
  for (const size_t size : {size_t{0}, size_t{1}, size_t{4096}, kBuf - 1, kBuf, kBuf + 1, 2 * kBuf + kBuf / 2 + 7}) {
    WriteAndCheck(dir.root(), Pattern(size), 1'000'003);
  }
  WriteAndCheck(dir.root(), Pattern(3 * kBuf), 3 * kBuf);  // one write larger than the buffer
}

// tmpfs refuses O_DIRECT on older kernels and takes it on newer ones: either way the bytes arrive.
TEST(AtomicFile, MemoryFileSystemGetsTheSameBytes) {
  if (!std::filesystem::is_directory("/dev/shm")) GTEST_SKIP() << "no /dev/shm";
  const std::filesystem::path dir = std::filesystem::path("/dev/shm") / ("msprobe_atomic_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  WriteAndCheck(dir, Pattern(2 * AtomicFile::kBufferBytes + 12345), 65536);
  std::filesystem::remove_all(dir);
}

TEST(AtomicFile, UncommittedFileLeavesNothing) {
  TempDir dir;
  const std::string path = dir.Path("never.bin");
  {
    auto file = AtomicFile::Create(path);
    ASSERT_TRUE(file.ok());
    ASSERT_TRUE(file->Write(Pattern(AtomicFile::kBufferBytes + 10)).ok());
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir.root()));
}

// A file moved while a buffer is being written keeps every byte (the move waits for that write).
TEST(AtomicFile, MovedWhileWritingKeepsEveryByte) {
  TempDir dir;
  const std::string path = dir.Path("moved.bin");
  const std::string data = Pattern(3 * AtomicFile::kBufferBytes + 99);
  auto created = AtomicFile::Create(path);
  ASSERT_TRUE(created.ok());
  const size_t half = data.size() / 2;
  ASSERT_TRUE(created->Write(std::string_view(data).substr(0, half)).ok());
  AtomicFile moved(std::move(*created));
  ASSERT_TRUE(moved.Write(std::string_view(data).substr(half)).ok());
  ASSERT_TRUE(moved.Commit().ok());
  EXPECT_TRUE(ReadFile(path) == data);
}

// A write that fails on the writer thread (here: past RLIMIT_FSIZE) fails the commit, and nothing
// appears under the final name.
TEST(AtomicFile, FailedBackgroundWriteFailsTheCommit) {
  rlimit old{};
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &old), 0);
  rlimit small = old;
  small.rlim_cur = AtomicFile::kBufferBytes / 2;
  if (old.rlim_max != RLIM_INFINITY && old.rlim_max < small.rlim_cur) GTEST_SKIP() << "file size limit too low";
  void (*old_handler)(int) = signal(SIGXFSZ, SIG_IGN);  // EFBIG instead of the signal
  TempDir dir;
  const std::string path = dir.Path("too_big.bin");
  Status committed;
  {
    auto file = AtomicFile::Create(path);
    ASSERT_TRUE(file.ok());
    ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
    (void)file->Write(Pattern(2 * AtomicFile::kBufferBytes + 5));
    committed = file->Commit();
  }
  setrlimit(RLIMIT_FSIZE, &old);
  signal(SIGXFSZ, old_handler);
  EXPECT_STATUS(committed, Code::kIOError, "write failed");
  EXPECT_TRUE(std::filesystem::is_empty(dir.root()));
}

TEST(AtomicFile, MissingDirectoryIsAnError) {
  TempDir dir;
  EXPECT_STATUS(AtomicFile::Create(dir.Path("no/such/dir/out.csv")), Code::kIOError, "cannot create");
}

}  // namespace
}  // namespace msprobe
