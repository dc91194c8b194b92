// Helpers shared by the unit tests: fixture paths, the ../shared skip rule, temp dirs, corruption.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "msprobe/dump/util/status.h"

namespace msprobe::testing {

// A file under tests/data (committed fixtures).
std::string TestData(const std::string& relative);
// A file under ../shared/data; empty when ../shared is absent (the caller skips).
std::string SharedData(const std::string& relative);

// Skips the current test when ../shared/data is not beside the project.
#define MSP_REQUIRE_SHARED(var, relative)                                          \
  const std::string var = ::msprobe::testing::SharedData(relative);                \
  if (var.empty()) GTEST_SKIP() << "../shared is absent; skipping " << (relative)

std::string ReadFile(const std::string& path);
// The bits of the double whose little-endian bytes Python's struct.pack('<d', v).hex() wrote as `hex` (16 digits).
uint64_t BitsOfLittleEndianHex(std::string_view hex);
// The lines of a fixture of two tab-separated columns, split; empty when the file cannot be read.
std::vector<std::pair<std::string, std::string>> ReadTabSeparatedPairs(const std::string& path);
void WriteFile(const std::string& path, const std::string& bytes);

// A fresh directory removed at destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  std::string Path(const std::string& name) const { return (root_ / name).string(); }
  const std::filesystem::path& root() const { return root_; }

 private:
  std::filesystem::path root_;
};

// Expects a failed Status/Result whose code matches and whose message contains `needle`.
#define EXPECT_STATUS(expr, expected_code, needle)                                              \
  do {                                                                                          \
    const ::msprobe::Status msp_st_ = ::msprobe::testing::StatusOf(expr);                       \
    EXPECT_EQ(msp_st_.code(), expected_code) << msp_st_.ToString();                             \
    EXPECT_NE(msp_st_.message().find(needle), std::string::npos) << msp_st_.ToString();        \
  } while (0)

inline ::msprobe::Status StatusOf(const ::msprobe::Status& s) { return s; }
template <class T>
::msprobe::Status StatusOf(const ::msprobe::Result<T>& r) { return r.status(); }

}  // namespace msprobe::testing
