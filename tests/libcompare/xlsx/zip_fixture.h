// A zip of the members given, deflated by minizip (the zip library libxlsxwriter itself uses): for
// reader tests that need packages of shapes no writer of ours makes.
#pragma once

#include <minizip/zip.h>

#include <string>
#include <utility>
#include <vector>

#include "test_support.h"

namespace msprobe::testing {

inline std::string ZipOf(const std::vector<std::pair<std::string, std::string>>& members) {
  TempDir dir;
  const std::string path = dir.Path("fixture.zip");
  zipFile zip = zipOpen(path.c_str(), APPEND_STATUS_CREATE);
  if (zip == nullptr) return "";
  for (const auto& [name, bytes] : members) {
    zipOpenNewFileInZip(zip, name.c_str(), nullptr, nullptr, 0, nullptr, 0, nullptr, Z_DEFLATED, Z_DEFAULT_COMPRESSION);
    zipWriteInFileInZip(zip, bytes.data(), static_cast<unsigned>(bytes.size()));
    zipCloseFileInZip(zip);
  }
  zipClose(zip, nullptr);
  return ReadFile(path);
}

}  // namespace msprobe::testing
