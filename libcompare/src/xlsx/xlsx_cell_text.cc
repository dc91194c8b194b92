#include "xlsx/xlsx_cell_text_internal.h"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string_view>

#include "msprobe/dump/text/python_format.h"

namespace msprobe::compare::internal {
namespace {

thread_local bool writing_cells = false;  // this thread is handing a sheet's cells to libxlsxwriter

// libxlsxwriter 1.1's cell formats, each a literal text with %s, %d and %.16G
// conversions: a number, then an inline string, without and with a style, then an inline string
// whose ends are spaces.
constexpr const char* kCellFormats[] = {
    "<c r=\"%s\"><v>%.16G</v></c>",
    "<c r=\"%s\" s=\"%d\"><v>%.16G</v></c>",
    "<c r=\"%s\" t=\"inlineStr\"><is><t>%s</t></is></c>",
    "<c r=\"%s\" s=\"%d\" t=\"inlineStr\"><is><t>%s</t></is></c>",
    "<c r=\"%s\" t=\"inlineStr\"><is><t xml:space=\"preserve\">%s</t></is></c>",
    "<c r=\"%s\" s=\"%d\" t=\"inlineStr\"><is><t xml:space=\"preserve\">%s</t></is></c>",
};

// One of kCellFormats split at its conversions: the literal text before each, then the text after
// the last, and each conversion's letter ('s', 'd' or 'G').
struct CellFormat {
  std::array<std::string_view, 4> literals{};
  std::array<char, 3> conversions{};
  int count = 0;
  size_t literal_bytes = 0;
};

constexpr CellFormat Split(std::string_view format) {
  CellFormat split;
  for (size_t at = 0;;) {
    const size_t percent = format.find('%', at);
    split.literals[static_cast<size_t>(split.count)] = format.substr(at, percent - at);
    split.literal_bytes += split.literals[static_cast<size_t>(split.count)].size();
    if (percent == std::string_view::npos) return split;
    const char conversion = format[percent + 1] == '.' ? 'G' : format[percent + 1];  // "%.16G"
    split.conversions[static_cast<size_t>(split.count++)] = conversion;
    at = percent + (conversion == 'G' ? 5 : 2);
  }
}

constexpr std::array<CellFormat, std::size(kCellFormats)> kSplitFormats = [] {
  std::array<CellFormat, std::size(kCellFormats)> split{};
  for (size_t i = 0; i < split.size(); ++i) split[i] = Split(kCellFormats[i]);
  return split;
}();

// The split form of a cell format, or null. libxlsxwriter passes its own string literals: a thread
// that has met one looks at the format it remembers at that address first.
const CellFormat* FindCellFormat(const char* format) {
  thread_local std::array<const char*, std::size(kCellFormats)> met{};
  for (size_t i = 0; i < met.size(); ++i) {
    if (met[i] == format && std::strcmp(format, kCellFormats[i]) == 0) return &kSplitFormats[i];
  }
  if (std::strncmp(format, "<c r=", 5) != 0) return nullptr;
  for (size_t i = 0; i < met.size(); ++i) {
    if (std::strcmp(format, kCellFormats[i]) == 0) {
      met[i] = format;
      return &kSplitFormats[i];
    }
  }
  return nullptr;
}

char* Copy(char* out, std::string_view text) {
  std::memcpy(out, text.data(), text.size());
  return out + text.size();
}

}  // namespace

// "%.16G" of a finite double v (0 as "0"), from its shortest round-trip digits S (Dragonbox: the
// shortest decimal that reads back as v, the closest to v of those, within half an ulp of it), when
// they decide it, into `out` (room for 32 bytes), returning the end; null when they may not.
// "%.16G" is v rounded to 16 digits, trailing zeros dropped. Two cases are decided:
// - S has 17 digits and does not end in 5. No 17-digit decimal lies strictly between v and S (it
//   would be closer to v), so no 16-digit rounding boundary does either: v rounds as S does.
// - S has 16 or fewer, and 16-digit decimals in v's decade lie further apart than v's ulp: any other
//   one is at least (spacing - ulp/2) > ulp/2 from v, further than S, so v rounds to S. S's decade
//   is v's unless S is a power of ten just above v (1e-308 for the subnormal 9.999999999999999E-309).
// The rest go to fmt's exact path for a precision, six times Dragonbox's time.
char* WriteShortest16G(char* out, double number) {
  constexpr double kLog2Of10 = 3.321928094887362;
  if (number == 0) return Copy(out, std::signbit(number) ? "-0" : "0");
  const PythonReprDigits repr = ReprDigitsOf(number);
  uint64_t significand = repr.significand;
  const int exp10 = repr.exp10;
  if (repr.count == 17) {
    // S does not round up to 10^16 here: next to a power of ten an ulp spans more than ten 17-digit
    // steps, so S would have been the power itself.
    const uint64_t last = significand % 10;
    if (last == 5) return nullptr;
    significand = significand / 10 + (last > 5 ? 1 : 0);
    while (significand % 10 == 0) significand /= 10;
  } else {
    const int ulp_exponent = std::max(std::ilogb(number), -1022) - 52;
    // 10^(exp10 - 15) > 2^ulp_exponent, with a margin for the product's rounding.
    if (significand == 1 || (exp10 - 15) * kLog2Of10 <= ulp_exponent + 0.01) return nullptr;
  }
  char* p = out;
  if (std::signbit(number)) *p++ = '-';
  return WriteDecimalDigits(p, significand, exp10, 'E', "");
}

namespace {

// A cell format with its arguments, written by fmt into one buffer of its size: what fprintf
// returns, or nothing written and nullopt when a number is not finite or a text is null (glibc's
// spelling of those is left to glibc).
std::optional<int> WriteCell(FILE* file, const CellFormat& format, va_list args) {
  constexpr size_t kNumberBytes = 32, kIntBytes = 11;
  struct Argument {
    std::string_view text;  // 's'
    int integer = 0;        // 'd'
    double number = 0;      // 'G'
  };
  std::array<Argument, 3> arguments;
  size_t bound = format.literal_bytes;
  for (int i = 0; i < format.count; ++i) {
    Argument& argument = arguments[static_cast<size_t>(i)];
    switch (format.conversions[static_cast<size_t>(i)]) {
      case 's': {
        const char* text = va_arg(args, const char*);
        if (text == nullptr) return std::nullopt;  // glibc's "(null)"
        argument.text = text;
        bound += argument.text.size();
        break;
      }
      case 'd':
        argument.integer = va_arg(args, int);
        bound += kIntBytes;
        break;
      default:
        argument.number = va_arg(args, double);
        if (!std::isfinite(argument.number)) return std::nullopt;
        bound += kNumberBytes;
    }
  }
  fmt::memory_buffer out;
  out.resize(bound);
  char* p = out.data();
  const auto copy = [&p](std::string_view text) { p = Copy(p, text); };
  for (int i = 0; i < format.count; ++i) {
    copy(format.literals[static_cast<size_t>(i)]);
    const Argument& argument = arguments[static_cast<size_t>(i)];
    switch (format.conversions[static_cast<size_t>(i)]) {
      case 's':
        copy(argument.text);
        break;
      case 'd': {
        const fmt::format_int digits(argument.integer);
        copy({digits.data(), digits.size()});
        break;
      }
      default:
        if (char* end = WriteShortest16G(p, argument.number)) {
          p = end;
        } else {
          p = fmt::format_to(p, FMT_COMPILE("{:.16G}"), argument.number);
        }
    }
  }
  copy(format.literals[static_cast<size_t>(format.count)]);
  const auto size = static_cast<size_t>(p - out.data());
  return std::fwrite(out.data(), 1, size, file) == size ? static_cast<int>(size) : -1;
}

// WriteCell when the call is ours to take; nullopt otherwise, with nothing written.
std::optional<int> TryCell(FILE* file, const char* format, va_list args) {
  if (!writing_cells || file == nullptr || format == nullptr) return std::nullopt;
  const CellFormat* cell = FindCellFormat(format);
  if (cell == nullptr) return std::nullopt;
  va_list copy;
  va_copy(copy, args);
  const std::optional<int> written = WriteCell(file, *cell, copy);
  va_end(copy);
  return written;
}

// libxlsxwriter names each cell it writes ("AB12") with snprintf(name, size, "%d", row): on a
// guarded thread the digits come from fmt, with snprintf's truncation and return value; nullopt,
// with nothing written, for any other call.
std::optional<int> TryRowNumber(char* out, size_t size, const char* format, va_list args) {
  if (!writing_cells || format == nullptr || format[0] != '%' || format[1] != 'd' || format[2] != '\0') {
    return std::nullopt;
  }
  va_list copy;
  va_copy(copy, args);
  const fmt::format_int digits(va_arg(copy, int));
  va_end(copy);
  if (size > 0) {
    const size_t kept = std::min(digits.size(), size - 1);
    std::memcpy(out, digits.data(), kept);
    out[kept] = '\0';
  }
  return static_cast<int>(digits.size());
}

}  // namespace

XlsxCellText::XlsxCellText() : previous_(writing_cells) { writing_cells = true; }
XlsxCellText::~XlsxCellText() { writing_cells = previous_; }

}  // namespace msprobe::compare::internal

// glibc's, which the fortified build of libxlsxwriter calls in the place of fprintf.
extern "C" int __vfprintf_chk(FILE* stream, int flag, const char* format, va_list args);

// Defined in the program, these come before libc.so's for every library the program loads.
extern "C" int __fprintf_chk(FILE* stream, int flag, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const std::optional<int> cell = msprobe::compare::internal::TryCell(stream, format, args);
  const int written = cell ? *cell : __vfprintf_chk(stream, flag, format, args);
  va_end(args);
  return written;
}

extern "C" int fprintf(FILE* __restrict stream, const char* __restrict format, ...) {
  va_list args;
  va_start(args, format);
  const std::optional<int> cell = msprobe::compare::internal::TryCell(stream, format, args);
  const int written = cell ? *cell : std::vfprintf(stream, format, args);
  va_end(args);
  return written;
}

extern "C" int snprintf(char* __restrict out, size_t size, const char* __restrict format, ...) {
  va_list args;
  va_start(args, format);
  const std::optional<int> row = msprobe::compare::internal::TryRowNumber(out, size, format, args);
  const int written = row ? *row : std::vsnprintf(out, size, format, args);
  va_end(args);
  return written;
}
