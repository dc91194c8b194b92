#include "msprobe/dump/io/atomic_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
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

// The name "<final>.tmp.<pid>" was once predictable: a link planted there made the writer overwrite
// the link's target, anywhere. Now that name is never opened.
TEST(AtomicFile, PlantedLinkAtThePredictableNameIsNotFollowed) {
  TempDir dir;
  const std::string victim = dir.Path("victim.txt"), path = dir.Path("out.csv");
  ASSERT_TRUE(WriteFileAtomically(victim, "keep").ok());
  std::filesystem::create_symlink(victim, path + ".tmp." + std::to_string(::getpid()));
  ASSERT_TRUE(WriteFileAtomically(path, "new").ok());
  EXPECT_EQ(ReadFile(victim), "keep");
  EXPECT_EQ(ReadFile(path), "new");
}

TEST(AtomicFile, TemporaryNamesAreRandomAndDistinct) {
  TempDir dir;
  const std::string path = dir.Path("out.csv");
  auto a = AtomicFile::Create(path);
  auto b = AtomicFile::Create(path);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(a->temp_path(), b->temp_path());
  for (const std::string& temp : {a->temp_path(), b->temp_path()}) {
    ASSERT_EQ(temp.rfind(path + ".tmp.", 0), 0u) << temp;
    const std::string suffix = temp.substr(path.size() + 5);
    EXPECT_EQ(suffix.size(), 16u) << temp;
    EXPECT_EQ(suffix.find_first_not_of("0123456789abcdef"), std::string::npos) << temp;
  }
}

// A child process with outputs in flight is ended by `sig`: it dies of that signal, and no temporary
// file is left beside the outputs.
void ExpectSignalLeavesNoTemporaryFile(int sig) {
  TempDir dir;
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto small = AtomicFile::Create(dir.Path("small.csv"));
    auto large = AtomicFile::Create(dir.Path("large.json"));
    if (!small.ok() || !large.ok() || !small->Write("a,b\n").ok()) ::_exit(10);
    if (!large->Write(Pattern(AtomicFile::kBufferBytes + 100)).ok()) ::_exit(11);
    ::raise(sig);
    ::_exit(12);  // not reached: the signal ends the process
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status)) << "exit status " << WEXITSTATUS(status);
  EXPECT_EQ(WTERMSIG(status), sig);
  EXPECT_TRUE(std::filesystem::is_empty(dir.root()));
}

TEST(AtomicFile, SigtermLeavesNoTemporaryFile) { ExpectSignalLeavesNoTemporaryFile(SIGTERM); }
TEST(AtomicFile, SigintLeavesNoTemporaryFile) { ExpectSignalLeavesNoTemporaryFile(SIGINT); }

}  // namespace
}  // namespace msprobe
