#include "msprobe/dump/formats/npy_reader.h"

#include <fmt/format.h>

#include <limits>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "msprobe/dump/io/mapped_file.h"
#include "formats/npy_header_internal.h"

namespace msprobe {
namespace {

using npy_internal::kMaxDims;

// Header text quoted for a message: non-printable bytes as \xNN, long text cut short.
std::string Quote(std::string_view text) {
  constexpr size_t kMaxShown = 80;
  std::string out;
  for (size_t i = 0; i < text.size() && i < kMaxShown; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      out += fmt::format("\\x{:02x}", c);
    }
  }
  if (text.size() > kMaxShown) out += "...";
  return out;
}

// What the header dict says.
struct NpyHeader {
  std::optional<std::string_view> descr;  // a string's contents, else the literal's raw text
  bool descr_is_string = false;           // false for a structured dtype's list
  std::optional<bool> fortran_order;
  std::optional<std::vector<int64_t>> shape;
};

// A parser for the one Python literal numpy writes: {'descr': '<f4', 'fortran_order': False,
// 'shape': (2, 3), }. It accepts what ast.literal_eval would for those three keys (any order, any
// whitespace, trailing commas, either quote) and reports the file offset of anything else.
class HeaderParser {
 public:
  HeaderParser(std::string_view text, uint64_t base, const std::string& source)
      : text_(text), base_(base), source_(source) {}

  Result<NpyHeader> Parse() {
    NpyHeader header;
    SkipSpace();
    MSP_RETURN_IF_ERROR(Expect('{', "the header dict"));
    while (true) {
      SkipSpace();
      if (Consume('}')) break;
      const uint64_t key_at = Offset();
      MSP_ASSIGN_OR_RETURN(std::string_view key, String("a header key"));
      SkipSpace();
      MSP_RETURN_IF_ERROR(Expect(':', fmt::format("':' after key '{}'", Quote(key))));
      SkipSpace();
      if (key == "descr") {
        if (header.descr) return Duplicate(key, key_at);
        MSP_RETURN_IF_ERROR(Descr(&header));
      } else if (key == "fortran_order") {
        if (header.fortran_order) return Duplicate(key, key_at);
        MSP_ASSIGN_OR_RETURN(header.fortran_order, Bool(key));
      } else if (key == "shape") {
        if (header.shape) return Duplicate(key, key_at);
        MSP_ASSIGN_OR_RETURN(header.shape, Shape());
      } else {
        return Error(fmt::format("unexpected key '{}' at offset {}; an npy header has only 'descr', "
                                 "'fortran_order' and 'shape'", Quote(key), key_at));
      }
      SkipSpace();
      if (Consume('}')) break;
      MSP_RETURN_IF_ERROR(Expect(',', "',' or '}' after a header value"));
    }
    SkipSpace();
    if (pos_ < text_.size()) {
      return Error(fmt::format("unexpected '{}' after the header dict at offset {}", Quote(text_.substr(pos_, 1)),
                               Offset()));
    }
    if (!header.descr) return Missing("descr");
    if (!header.fortran_order) return Missing("fortran_order");
    if (!header.shape) return Missing("shape");
    return header;
  }

 private:
  // Nesting limit for the literals skipped inside a structured descr.
  static constexpr int kMaxDepth = 32;

  uint64_t Offset() const { return base_ + pos_; }
  int Peek() const { return pos_ < text_.size() ? static_cast<unsigned char>(text_[pos_]) : -1; }
  bool Consume(char c) {
    if (Peek() != static_cast<unsigned char>(c)) return false;
    ++pos_;
    return true;
  }
  void SkipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' ||
                                   text_[pos_] == '\r' || text_[pos_] == '\f' || text_[pos_] == '\v')) {
      ++pos_;
    }
  }
  // "expected X at offset N, found 'c'" (or "the end of the header").
  Status Unexpected(std::string_view what) const {
    const std::string found =
        pos_ < text_.size() ? fmt::format("'{}'", Quote(text_.substr(pos_, 1))) : std::string("the end of the header");
    return Error(fmt::format("bad header: expected {} at offset {}, found {}", what, Offset(), found));
  }
  Status Expect(char c, std::string_view what) {
    if (Consume(c)) return Status::Ok();
    return Unexpected(what);
  }
  Status Duplicate(std::string_view key, uint64_t at) const {
    return Error(fmt::format("duplicate key '{}' at offset {} in the header", key, at));
  }
  Status Missing(std::string_view key) const { return Error(fmt::format("header has no '{}' key", key)); }
  Status Error(std::string message) const { return Status::InvalidInput(source_, std::move(message)); }
  static bool IsWordChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  }

  // A quoted string without escapes ('...' or "...").
  Result<std::string_view> String(std::string_view what) {
    const int quote = Peek();
    if (quote != '\'' && quote != '"') return Unexpected(what);
    const size_t start = ++pos_;
    while (pos_ < text_.size() && text_[pos_] != quote && text_[pos_] != '\n') {
      if (text_[pos_] == '\\') return Error(fmt::format("bad header: unsupported escape in a string at offset {}", Offset()));
      ++pos_;
    }
    if (pos_ >= text_.size() || text_[pos_] != quote) {
      return Error(fmt::format("bad header: string starting at offset {} is not closed", base_ + start - 1));
    }
    return text_.substr(start, pos_++ - start);
  }

  std::string_view Word() {
    const size_t start = pos_;
    while (pos_ < text_.size() && IsWordChar(text_[pos_])) ++pos_;
    return text_.substr(start, pos_ - start);
  }

  Result<bool> Bool(std::string_view key) {
    const size_t at = pos_;
    const std::string_view word = Word();
    if (word == "True") return true;
    if (word == "False") return false;
    pos_ = at;  // report the offset where the word starts
    return Unexpected(fmt::format("True or False for '{}'", key));
  }

  Status Descr(NpyHeader* header) {
    const size_t start = pos_;
    if (Peek() == '\'' || Peek() == '"') {
      MSP_ASSIGN_OR_RETURN(header->descr, String("a descr"));
      header->descr_is_string = true;
    } else {
      MSP_RETURN_IF_ERROR(SkipValue(0));
      header->descr = text_.substr(start, pos_ - start);
    }
    return Status::Ok();
  }

  // A tuple of non-negative ints: "()", "(5,)", "(2, 3)", "(2, 3,)". Python 2 longs ("3L") are
  // accepted as numpy's own reader does.
  Result<std::vector<int64_t>> Shape() {
    const uint64_t open_at = Offset();
    if (Peek() == '[') return Error(fmt::format("'shape' at offset {} is a list; numpy writes a tuple", open_at));
    MSP_RETURN_IF_ERROR(Expect('(', "a tuple for 'shape'"));
    std::vector<int64_t> dims;
    bool trailing_comma = false;
    while (true) {
      SkipSpace();
      if (Consume(')')) break;
      if (dims.size() == kMaxDims) {
        return Error(fmt::format("shape at offset {} has more than {} dims", open_at, kMaxDims));
      }
      MSP_ASSIGN_OR_RETURN(int64_t dim, Dim());
      dims.push_back(dim);
      SkipSpace();
      trailing_comma = Consume(',');
      if (trailing_comma) continue;
      MSP_RETURN_IF_ERROR(Expect(')', "',' or ')' in 'shape'"));
      break;
    }
    // "(5)" is the int 5 in Python, not a tuple.
    if (dims.size() == 1 && !trailing_comma) {
      return Error(fmt::format("'shape' at offset {} is not a tuple: a 1-tuple needs a trailing comma", open_at));
    }
    return dims;
  }

  Result<int64_t> Dim() {
    const uint64_t at = Offset();
    const bool negative = Consume('-');
    if (!negative) Consume('+');
    if (Peek() < '0' || Peek() > '9') return Unexpected("a dimension (an integer)");
    const size_t digits_start = pos_;
    uint64_t value = 0;
    bool overflow = false;
    while (Peek() >= '0' && Peek() <= '9') {
      const auto digit = static_cast<uint64_t>(text_[pos_++] - '0');
      if (value > (std::numeric_limits<uint64_t>::max() - digit) / 10) overflow = true;
      if (!overflow) value = value * 10 + digit;
    }
    const std::string_view digits = text_.substr(digits_start, pos_ - digits_start);
    Consume('L');
    if (negative && value != 0) {
      return Error(fmt::format("negative dimension -{} in 'shape' at offset {}", Quote(digits), at));
    }
    if (overflow || value > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return Error(fmt::format("dimension {} in 'shape' at offset {} does not fit in 64 bits", Quote(digits), at));
    }
    return static_cast<int64_t>(value);
  }

  // Skips any literal (string, number, name, tuple, list, dict); used for structured descrs only.
  Status SkipValue(int depth) {
    if (depth > kMaxDepth) return Error(fmt::format("header literal nested deeper than {} at offset {}", kMaxDepth, Offset()));
    const int c = Peek();
    if (c == '\'' || c == '"') return String("a value").status();
    if (c == '(' || c == '[' || c == '{') {
      const char close = c == '(' ? ')' : c == '[' ? ']' : '}';
      ++pos_;
      while (true) {
        SkipSpace();
        if (Consume(close)) return Status::Ok();
        MSP_RETURN_IF_ERROR(SkipValue(depth + 1));
        SkipSpace();
        if (close == '}' && Consume(':')) {
          SkipSpace();
          MSP_RETURN_IF_ERROR(SkipValue(depth + 1));
          SkipSpace();
        }
        if (Consume(close)) return Status::Ok();
        MSP_RETURN_IF_ERROR(Expect(',', fmt::format("',' or '{}'", close)));
      }
    }
    if (c == '-' || c == '+') ++pos_;
    const size_t start = pos_;
    while (pos_ < text_.size() && (IsWordChar(text_[pos_]) || text_[pos_] == '.')) ++pos_;
    if (pos_ == start) return Unexpected("a value");
    return Status::Ok();
  }

  std::string_view text_;
  uint64_t base_;  // file offset of text_[0]
  const std::string& source_;
  size_t pos_ = 0;
};

// Element count of `shape`, refusing products above 2^62 (ValidateExtent's limit). Zero dims are
// left out of the check so that every partial product of the non-zero dims, in either order, fits.
Result<uint64_t> CountElements(const std::vector<int64_t>& shape, const TensorInfo& info, const std::string& source) {
  constexpr uint64_t kLimit = uint64_t{1} << 62;
  uint64_t nonzero_product = 1;
  bool has_zero = false;
  for (int64_t d : shape) {
    if (d == 0) {
      has_zero = true;
      continue;
    }
    if (nonzero_product > kLimit / static_cast<uint64_t>(d)) {
      return Status::InvalidInput(source, fmt::format("shape {} has too many elements", info.ShapeString()));
    }
    nonzero_product *= static_cast<uint64_t>(d);
  }
  return has_zero ? 0 : nonzero_product;
}

}  // namespace

Result<TensorInfo> ParseNpy(Bytes file, const std::string& source) {
  using npy_internal::kMagic;
  if (file.size() < npy_internal::kPreambleV1) {
    return Status::InvalidInput(source, fmt::format("file has {} bytes, too short for an npy header (at least {})",
                                                    file.size(), npy_internal::kPreambleV1));
  }
  ByteCursor cursor(file, source);
  MSP_ASSIGN_OR_RETURN(Bytes magic, cursor.Take(kMagic.size()));
  if (AsChars(magic) != kMagic) {
    return Status::InvalidInput(source, fmt::format("not an npy file: bad magic '{}' at offset 0 (expected '\\x93NUMPY')",
                                                    Quote(AsChars(magic))));
  }
  MSP_ASSIGN_OR_RETURN(uint8_t major, cursor.U8());
  MSP_ASSIGN_OR_RETURN(uint8_t minor, cursor.U8());
  uint64_t header_length = 0;
  if (major == 1 && minor == 0) {
    MSP_ASSIGN_OR_RETURN(header_length, cursor.LittleEndian<uint16_t>());
  } else if ((major == 2 || major == 3) && minor == 0) {
    MSP_ASSIGN_OR_RETURN(header_length, cursor.LittleEndian<uint32_t>());
  } else {
    return Status::Unsupported(source, fmt::format("npy format version {}.{} at offset 6 (1.0, 2.0 and 3.0 are read)",
                                                   major, minor));
  }
  const uint64_t header_at = cursor.Offset();
  if (header_length == 0) return Status::InvalidInput(source, fmt::format("empty npy header at offset {}", header_at));
  if (header_length > cursor.Remaining()) {
    return Status::InvalidInput(source, fmt::format("header declares {} bytes at offset {}, file has {} left",
                                                    header_length, header_at, cursor.Remaining()));
  }
  MSP_ASSIGN_OR_RETURN(Bytes header_bytes, cursor.Take(header_length));
  MSP_ASSIGN_OR_RETURN(NpyHeader header, HeaderParser(AsChars(header_bytes), header_at, source).Parse());

  TensorInfo info;
  if (!header.descr_is_string) {
    return Status::Unsupported(source, fmt::format("unsupported descr {}: structured dtypes are not read",
                                                   Quote(*header.descr)));
  }
  bool big_endian = false;
  const std::optional<DType> dtype = FromNpyDescr(*header.descr, &big_endian);
  if (!dtype) {
    return Status::Unsupported(source, fmt::format("unsupported descr '{}': only numeric and bool dtypes are read",
                                                   Quote(*header.descr)));
  }
  info.dtype = *dtype;
  info.big_endian = big_endian;
  info.shape = std::move(*header.shape);
  info.path = source;
  info.data_offset = cursor.Offset();
  MSP_ASSIGN_OR_RETURN(const uint64_t numel, CountElements(info.shape, info, source));
  const uint64_t item_size = Info(info.dtype).bits / 8;
  if (numel > cursor.Remaining() / item_size) {
    const std::string needed = numel <= std::numeric_limits<uint64_t>::max() / item_size
                                   ? std::to_string(numel * item_size)
                                   : "more than 2^64";
    return Status::InvalidInput(source, fmt::format("data of shape {} {} needs {} bytes at offset {}, file has {} left",
                                                    info.ShapeString(), Name(info.dtype), needed, info.data_offset,
                                                    cursor.Remaining()));
  }
  info.storage_elements = numel;
  if (*header.fortran_order && numel > 0) {
    // Column-major: the first index varies fastest. Partial products are bounded by CountElements.
    info.strides.resize(info.shape.size());
    int64_t stride = 1;
    for (size_t dim_idx = 0; dim_idx < info.shape.size(); ++dim_idx) {
      info.strides[dim_idx] = stride;
      stride *= info.shape[dim_idx];
    }
  }
  MSP_RETURN_IF_ERROR(ValidateExtent(info, source));
  return info;
}

Result<TensorInfo> ReadNpyFile(const std::string& path) {
  MSP_ASSIGN_OR_RETURN(std::shared_ptr<MappedFile> file, MappedFile::Open(path));
  MSP_ASSIGN_OR_RETURN(MappedRegion region, file->MapAll());
  return ParseNpy(region.bytes(), path);
}

}  // namespace msprobe
