#include "msprobe/dump/io/pending_output.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "test_support.h"

namespace msprobe {
namespace {

using msprobe::testing::ReadFile;
using msprobe::testing::TempDir;
using msprobe::testing::WriteFile;

size_t Entries(const std::filesystem::path& dir) {
  size_t n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++n;
  return n;
}

// Another library writes the temporary file by its path; the final name appears at Commit only and
// replaces an older output.
TEST(PendingOutput, FinalNameOnlyAtCommit) {
  TempDir dir;
  const std::string path = dir.Path("out.db");
  WriteFile(path, "old");
  auto out = PendingOutput::Create(path);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_TRUE(out->temp_path().starts_with(path + ".tmp."));
  EXPECT_EQ(std::filesystem::file_size(out->temp_path()), 0u);  // created empty
  WriteFile(out->temp_path(), "new");
  EXPECT_EQ(ReadFile(path), "old");
  ASSERT_TRUE(out->Commit().ok());
  EXPECT_EQ(ReadFile(path), "new");
  EXPECT_EQ(Entries(dir.root()), 1u);
}

TEST(PendingOutput, RemovedWhenNotCommitted) {
  TempDir dir;
  std::string temp;
  {
    auto out = PendingOutput::Create(dir.Path("out.db"));
    ASSERT_TRUE(out.ok());
    PendingOutput moved(std::move(*out));  // the moved-from one removes nothing
    temp = moved.temp_path();
    WriteFile(temp, "partial");
  }
  EXPECT_FALSE(std::filesystem::exists(temp));
  EXPECT_EQ(Entries(dir.root()), 0u);
}

TEST(PendingOutput, UnwritableDirectoryNamesThePath) {
  EXPECT_STATUS(PendingOutput::Create("/nonexistent_dir_for_test/out.db"), Code::kIOError, "cannot create");
}

}  // namespace
}  // namespace msprobe
