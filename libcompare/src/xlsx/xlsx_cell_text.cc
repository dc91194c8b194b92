#include "xlsx/xlsx_cell_text_internal.h"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <optional>

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

bool IsCellFormat(const char* format) {
  if (std::strncmp(format, "<c r=", 5) != 0) return false;
  for (const char* known : kCellFormats) {
    if (std::strcmp(format, known) == 0) return true;
  }
  return false;
}

// One of kCellFormats with its arguments, written by fmt: what fprintf returns, or nothing written
// and nullopt when a number is not finite (glibc's spelling of those is left to glibc).
std::optional<int> WriteCell(FILE* file, const char* format, va_list args) {
  fmt::memory_buffer out;
  for (const char* p = format; *p != '\0';) {
    const char* percent = std::strchr(p, '%');
    if (percent == nullptr) percent = p + std::strlen(p);
    out.append(p, percent);
    if (*percent == '\0') break;
    if (percent[1] == 's') {
      const char* s = va_arg(args, const char*);
      out.append(s, s + std::strlen(s));
      p = percent + 2;
    } else if (percent[1] == 'd') {
      const fmt::format_int digits(va_arg(args, int));
      out.append(digits.data(), digits.data() + digits.size());
      p = percent + 2;
    } else {  // "%.16G"
      const double number = va_arg(args, double);
      if (!std::isfinite(number)) return std::nullopt;
      fmt::format_to(fmt::appender(out), FMT_COMPILE("{:.16G}"), number);
      p = percent + 5;
    }
  }
  return std::fwrite(out.data(), 1, out.size(), file) == out.size() ? static_cast<int>(out.size()) : -1;
}

// WriteCell when the call is ours to take; nullopt otherwise, with nothing written.
std::optional<int> TryCell(FILE* file, const char* format, va_list args) {
  if (!writing_cells || file == nullptr || format == nullptr || !IsCellFormat(format)) return std::nullopt;
  va_list copy;
  va_copy(copy, args);
  const std::optional<int> written = WriteCell(file, format, copy);
  va_end(copy);
  return written;
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
