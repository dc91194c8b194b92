#include "msprobe/compare/csv_reader.h"

#include <fmt/format.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <vector>

namespace msprobe::compare {

namespace {

// Where a field's text lives: in the input, or (quoted fields) in the record's decoded buffer, which
// may grow while the record is read; views are made once the record is complete.
struct FieldRef {
  bool decoded;
  size_t offset, size;
};

// The first ',', '\n' or '\r' of text[pos..], or text.size(): eight bytes at a time (a byte equal
// to c is a zero byte of w ^ c·0x01…01; the lowest flagged byte is exact), then byte by byte.
size_t FindFieldEnd(std::string_view text, size_t pos) {
  if constexpr (std::endian::native == std::endian::little) {
    constexpr uint64_t kOnes = 0x0101010101010101ull;
    constexpr uint64_t kHigh = 0x8080808080808080ull;
    auto zero_bytes = [](uint64_t x) { return (x - kOnes) & ~x & kHigh; };
    while (pos + 8 <= text.size()) {
      uint64_t w;
      std::memcpy(&w, text.data() + pos, 8);
      const uint64_t m = zero_bytes(w ^ (kOnes * ',')) | zero_bytes(w ^ (kOnes * '\n')) | zero_bytes(w ^ (kOnes * '\r'));
      if (m != 0) return pos + static_cast<size_t>(std::countr_zero(m) >> 3);
      pos += 8;
    }
  }
  while (pos < text.size() && text[pos] != ',' && text[pos] != '\n' && text[pos] != '\r') ++pos;
  return pos;
}

}  // namespace

Status ReadCsv(Bytes data, const std::string& source, const CsvRowVisitor& visit) {
  std::string_view text = AsChars(data);
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  std::vector<FieldRef> refs;
  std::vector<std::string_view> fields;
  std::string decoded;  // quoted fields of the current record, unescaped
  uint64_t line = 1;
  size_t pos = 0;
  while (pos < text.size()) {
    const uint64_t record_line = line;
    refs.clear();
    decoded.clear();
    bool record_has_quotes = false;
    // A record ends at the first newline outside quotes.
    for (;;) {
      if (pos < text.size() && text[pos] == '"') {
        record_has_quotes = true;
        const size_t start = decoded.size();
        ++pos;
        for (;;) {
          const size_t quote = text.find('"', pos);
          if (quote == std::string_view::npos) {
            return Status::InvalidInput(source, fmt::format("line {}: quoted field is not closed", record_line));
          }
          const std::string_view piece = text.substr(pos, quote - pos);
          for (char c : piece) line += c == '\n';
          decoded.append(piece);
          pos = quote + 1;
          if (pos < text.size() && text[pos] == '"') {
            decoded += '"';
            ++pos;
            continue;
          }
          break;
        }
        refs.push_back({true, start, decoded.size() - start});
        if (pos < text.size() && text[pos] != ',' && text[pos] != '\n' && text[pos] != '\r') {
          return Status::InvalidInput(source, fmt::format("line {}: character '{}' after a closing quote", line,
                                                          text[pos]));
        }
      } else {
        const size_t stop = FindFieldEnd(text, pos);
        refs.push_back({false, pos, stop - pos});
        pos = stop;
      }
      if (pos < text.size() && text[pos] == ',') {
        ++pos;
        continue;
      }
      break;
    }
    // Record end: "\n", "\r\n", a lone "\r", or the end of the data.
    if (pos < text.size() && text[pos] == '\r') ++pos;
    if (pos < text.size() && text[pos] == '\n') ++pos;
    ++line;
    if (refs.size() == 1 && refs[0].size == 0 && !record_has_quotes) continue;  // blank line
    fields.clear();
    for (const FieldRef& r : refs) {
      fields.push_back(r.decoded ? std::string_view(decoded).substr(r.offset, r.size) : text.substr(r.offset, r.size));
    }
    MSP_RETURN_IF_ERROR(visit(record_line, fields));
  }
  return Status::Ok();
}

}  // namespace msprobe::compare
