#include "test_support.h"

#include <unistd.h>

#include <fstream>
#include <random>
#include <sstream>

namespace msprobe::testing {

std::string TestData(const std::string& relative) { return std::string(MSPROBE_TEST_DATA) + "/" + relative; }

std::string SharedData(const std::string& relative) {
  const std::filesystem::path path = std::filesystem::path(MSPROBE_SHARED_DIR) / "data" / relative;
  return std::filesystem::exists(path) ? path.string() : std::string();
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

uint64_t BitsOfLittleEndianHex(std::string_view hex) {
  uint64_t bits = 0;
  for (size_t i = 0; i < 8 && 2 * i + 2 <= hex.size(); ++i) {
    bits |= std::stoull(std::string(hex.substr(2 * i, 2)), nullptr, 16) << (8 * i);
  }
  return bits;
}

std::vector<std::pair<std::string, std::string>> ReadTabSeparatedPairs(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::pair<std::string, std::string>> pairs;
  for (std::string line; std::getline(in, line);) {
    const size_t tab = line.find('\t');
    pairs.emplace_back(line.substr(0, tab), tab == std::string::npos ? std::string() : line.substr(tab + 1));
  }
  return pairs;
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
}

TempDir::TempDir() {
  std::random_device rd;
  root_ = std::filesystem::temp_directory_path() /
          ("msprobe_test_" + std::to_string(::getpid()) + "_" + std::to_string(rd()));
  std::filesystem::create_directories(root_);
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(root_, ec);
}

}  // namespace msprobe::testing
