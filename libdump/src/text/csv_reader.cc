#include "msprobe/dump/text/csv_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

#include "msprobe/dump/text/utf8.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace msprobe {

namespace {

// Where each ',', '\n' and '\r' of the input is, 64 bytes at a time: bit i of the block mask is
// set when text[base + i] is one. The mask depends on the bytes only, not on the parse, so a
// position reached after a quoted field is looked up in the same block.
class FieldEndScanner {
 public:
  explicit FieldEndScanner(std::string_view text) : text_(text) {}

  // The first ',', '\n' or '\r' at or after `pos`, or text.size().
  size_t Next(size_t pos) {
    for (;;) {
      if (pos - base_ < kBlock) {  // pos ≥ base_ (else the difference wraps around)
        const uint64_t m = mask_ >> (pos - base_);
        if (m != 0) return pos + static_cast<size_t>(std::countr_zero(m));
        pos = base_ + kBlock;
      }
      if (pos >= text_.size()) return text_.size();
      Load(pos);
    }
  }

 private:
  static constexpr size_t kBlock = 64;

  static bool IsEnd(char c) { return c == ',' || c == '\n' || c == '\r'; }

  void Load(size_t pos) {
    base_ = pos;
    const char* p = text_.data() + pos;
    uint64_t m = 0;
    if (text_.size() - pos >= kBlock) {
#if defined(__SSE2__)
      const __m128i comma = _mm_set1_epi8(',');
      const __m128i lf = _mm_set1_epi8('\n');
      const __m128i cr = _mm_set1_epi8('\r');
      for (size_t i = 0; i < kBlock; i += 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
        const __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, comma), _mm_cmpeq_epi8(v, lf)),
                                         _mm_cmpeq_epi8(v, cr));
        m |= uint64_t{static_cast<uint16_t>(_mm_movemask_epi8(hit))} << i;
      }
#else
      for (size_t i = 0; i < kBlock; ++i) m |= uint64_t{IsEnd(p[i])} << i;
#endif
    } else {
      for (size_t i = 0; i < text_.size() - pos; ++i) m |= uint64_t{IsEnd(p[i])} << i;
    }
    mask_ = m;
  }

  std::string_view text_;
  size_t base_ = SIZE_MAX - kBlock;  // no block loaded yet
  uint64_t mask_ = 0;
};

// A field unescaped into the record's decoded buffer (it had a "" inside). The buffer may grow
// while the record is read, so its view is made once the record is complete.
struct DecodedField {
  size_t field, offset, size;
};

}  // namespace

Status ReadCsv(Bytes data, const std::string& source, const CsvRowVisitor& visit, size_t max_fields) {
  std::string_view text = AsChars(data);
  // pandas and Python's csv module read the file as UTF-8 and refuse it whole otherwise; so do we,
  // before its text can reach an output other programs parse.
  if (const std::optional<size_t> bad = FindInvalidUtf8(text)) {
    return Status::InvalidInput(source, fmt::format("invalid UTF-8 at byte {}", *bad));
  }
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  FieldEndScanner scanner(text);
  std::vector<std::string_view> fields;
  std::vector<DecodedField> decoded_fields;
  std::string decoded;  // fields of the current record that held "", unescaped
  uint64_t line = 1;
  size_t pos = 0;
  while (pos < text.size()) {
    const uint64_t record_line = line;
    fields.clear();
    decoded_fields.clear();
    decoded.clear();
    bool record_has_quotes = false;
    // A record ends at the first newline outside quotes.
    for (;;) {
      if (pos < text.size() && text[pos] == '"') {
        record_has_quotes = true;
        ++pos;
        size_t quote = text.find('"', pos);
        if (quote == std::string_view::npos) {
          return Status::InvalidInput(source, fmt::format("line {}: quoted field is not closed", record_line));
        }
        if (quote + 1 >= text.size() || text[quote + 1] != '"') {
          // No "" inside: the field is a view of the input, as unquoted ones are.
          const std::string_view piece = text.substr(pos, quote - pos);
          line += static_cast<uint64_t>(std::count(piece.begin(), piece.end(), '\n'));
          fields.push_back(piece);
          pos = quote + 1;
        } else {
          const size_t start = decoded.size();
          for (;;) {
            const std::string_view piece = text.substr(pos, quote - pos);
            line += static_cast<uint64_t>(std::count(piece.begin(), piece.end(), '\n'));
            decoded.append(piece);
            pos = quote + 1;
            if (pos < text.size() && text[pos] == '"') {
              decoded += '"';
              ++pos;
              quote = text.find('"', pos);
              if (quote == std::string_view::npos) {
                return Status::InvalidInput(source, fmt::format("line {}: quoted field is not closed", record_line));
              }
              continue;
            }
            break;
          }
          decoded_fields.push_back({fields.size(), start, decoded.size() - start});
          fields.emplace_back();
        }
        if (pos < text.size() && text[pos] != ',' && text[pos] != '\n' && text[pos] != '\r') {
          return Status::InvalidInput(source, fmt::format("line {}: character '{}' after a closing quote", line,
                                                          text[pos]));
        }
      } else {
        const size_t stop = scanner.Next(pos);
        fields.push_back(text.substr(pos, stop - pos));
        pos = stop;
      }
      if (fields.size() > max_fields) {
        return Status::InvalidInput(source, fmt::format("line {}: more than {} fields", record_line, max_fields));
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
    if (fields.size() == 1 && fields[0].empty() && !record_has_quotes) continue;  // blank line
    for (const DecodedField& d : decoded_fields) fields[d.field] = std::string_view(decoded).substr(d.offset, d.size);
    MSP_RETURN_IF_ERROR(visit(record_line, fields));
  }
  return Status::Ok();
}

}  // namespace msprobe
