// Helpers for the zip, pickle and .pt reader tests: a minimal stored-zip writer (so a test can put a
// hand-edited data.pkl back into an archive) and byte-patching of fixtures in memory.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "msprobe/dump/io/byte_cursor.h"

namespace msprobe::testing {

inline void PutLe(std::string* out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

// A classic zip of stored members: local headers without extras, a central directory, an end record.
inline std::string BuildStoredZip(const std::vector<std::pair<std::string, std::string>>& members) {
  std::string out;
  std::string central;
  for (const auto& [name, data] : members) {
    const uint64_t offset = out.size();
    PutLe(&out, 0x04034b50, 4);
    PutLe(&out, 20, 2);           // version needed
    PutLe(&out, 0, 2);            // flags
    PutLe(&out, 0, 2);            // method: stored
    PutLe(&out, 0, 4);            // time, date
    PutLe(&out, 0, 4);            // crc (not checked by the reader)
    PutLe(&out, data.size(), 4);
    PutLe(&out, data.size(), 4);
    PutLe(&out, name.size(), 2);
    PutLe(&out, 0, 2);
    out += name;
    out += data;
    PutLe(&central, 0x02014b50, 4);
    PutLe(&central, 20, 2);
    PutLe(&central, 20, 2);
    PutLe(&central, 0, 2);
    PutLe(&central, 0, 2);
    PutLe(&central, 0, 4);
    PutLe(&central, 0, 4);
    PutLe(&central, data.size(), 4);
    PutLe(&central, data.size(), 4);
    PutLe(&central, name.size(), 2);
    PutLe(&central, 0, 2);        // extra
    PutLe(&central, 0, 2);        // comment
    PutLe(&central, 0, 2);        // disk
    PutLe(&central, 0, 2);        // internal attributes
    PutLe(&central, 0, 4);        // external attributes
    PutLe(&central, offset, 4);
    central += name;
  }
  const uint64_t cd_offset = out.size();
  out += central;
  PutLe(&out, 0x06054b50, 4);
  PutLe(&out, 0, 4);
  PutLe(&out, members.size(), 2);
  PutLe(&out, members.size(), 2);
  PutLe(&out, central.size(), 4);
  PutLe(&out, cd_offset, 4);
  PutLe(&out, 0, 2);
  return out;
}

// Replaces every occurrence of `from` by `to` (same length); fails the test when there is none.
inline std::string Patch(std::string bytes, const std::string& from, const std::string& to) {
  EXPECT_EQ(from.size(), to.size());
  size_t found = 0;
  for (size_t at = bytes.find(from); at != std::string::npos; at = bytes.find(from, at + to.size())) {
    bytes.replace(at, from.size(), to);
    ++found;
  }
  EXPECT_GT(found, 0u) << "pattern not found";
  return bytes;
}

inline Bytes View(const std::string& s) { return AsBytes(s); }

}  // namespace msprobe::testing
