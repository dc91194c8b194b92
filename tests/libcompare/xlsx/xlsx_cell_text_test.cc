// libxlsxwriter's cell fprintf()s, written by fmt on a thread that holds an XlsxCellText
// (xlsx_cell_text_internal.h), are the bytes glibc's printf makes of them: each format against
// glibc's snprintf, and whole sheets written by libxlsxwriter itself with and without the guard.
#include "xlsx/xlsx_cell_text_internal.h"

#include <dlfcn.h>
#include <gtest/gtest.h>
#include <xlsxwriter.h>

#include <bit>
#include <cfenv>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdarg>
#include <cstdlib>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "msprobe/dump/formats/zip_archive.h"
#include "test_support.h"

// glibc's, which the interposed __fprintf_chk forwards to (xlsx_cell_text.cc).
extern "C" int __fprintf_chk(FILE* stream, int flag, const char* format, ...);

namespace msprobe::compare::internal {
namespace {

using msprobe::testing::ReadFile;
using msprobe::testing::TempDir;

// Doubles whose "%.16G" takes every branch: random bit patterns and magnitudes, float32 values and
// their differences, both notations and the switch between them, 16-digit ties (1234567890123456.5
// is exact), subnormals and the extremes.
std::vector<double> Numbers() {
  std::vector<double> out = {0.0,
                             -0.0,
                             1.0,
                             0.1,
                             1.0 / 3,
                             1e-4,
                             1e-5,
                             0.00012345678901234567,
                             1e15,
                             1e16,
                             9999999999999998.0,
                             9007199254740993.0,
                             1234567890123456.5,
                             1234567890123457.5,
                             -2345678901234567.5,
                             DBL_MAX,
                             -DBL_MAX,
                             DBL_MIN,
                             std::numeric_limits<double>::denorm_min(),
                             DBL_EPSILON};
  // Where a double's ulp and the spacing of 16-digit decimals change (xlsx_cell_text.cc takes the
  // shortest digits only while the spacing is the larger): the doubles about every power of two
  // and of ten, a few ulps either way.
  std::vector<double> edges;
  for (int e = -1074; e <= 1023; ++e) edges.push_back(std::ldexp(1.0, e));
  for (int e = -323; e <= 308; ++e) edges.push_back(std::strtod(("1e" + std::to_string(e)).c_str(), nullptr));
  for (const double edge : edges) {
    double below = edge, above = edge;
    for (int i = 0; i < 4; ++i) {
      out.push_back(below);
      out.push_back(above);
      below = std::nextafter(below, 0.0);
      above = std::nextafter(above, HUGE_VAL);
    }
  }
  std::mt19937_64 rng(20261128);
  std::normal_distribution<double> normal(0, 1);
  for (int i = 0; i < 100000; ++i) {
    const double bits = std::bit_cast<double>(rng());
    if (std::isfinite(bits)) out.push_back(bits);
    out.push_back(normal(rng) * std::pow(10.0, static_cast<int>(rng() % 50) - 25));
    out.push_back(static_cast<double>(static_cast<int64_t>(rng() >> (rng() % 64))) / 1024);
    // a float32 statistic and a difference of two, as a compare's cells mostly are
    const auto stat = [&] { return static_cast<double>(static_cast<float>(normal(rng) * std::pow(10.0, static_cast<int>(rng() % 16) - 8))); };
    const double a = stat();
    out.push_back(a);
    out.push_back(a - stat());
  }
  return out;
}

// What `print` writes on a stream, with our cells' writing on or off.
template <typename Print>
std::string Printed(bool ours, Print print) {
  char* data = nullptr;
  size_t size = 0;
  FILE* stream = open_memstream(&data, &size);
  {
    std::optional<XlsxCellText> by_fmt;
    if (ours) by_fmt.emplace();
    print(stream);
  }
  std::fclose(stream);
  std::string text(data, size);
  std::free(data);
  return text;
}

template <typename... Args>
std::string Glibc(const char* format, Args... args) {
  char text[512];
  const int n = std::snprintf(text, sizeof(text), format, args...);
  return std::string(text, static_cast<size_t>(n));
}

// libxlsxwriter and every other library bind to our definitions, not libc's.
TEST(XlsxCellText, TheProgramsFprintfComesBeforeLibcs) {
  void* ours = dlsym(RTLD_DEFAULT, "__fprintf_chk");
  EXPECT_EQ(ours, reinterpret_cast<void*>(&__fprintf_chk));
  EXPECT_NE(ours, dlsym(RTLD_NEXT, "__fprintf_chk"));
  EXPECT_EQ(dlsym(RTLD_DEFAULT, "fprintf"), reinterpret_cast<void*>(&fprintf));
  EXPECT_NE(dlsym(RTLD_DEFAULT, "fprintf"), dlsym(RTLD_NEXT, "fprintf"));
}

TEST(XlsxCellText, TheProgramsSnprintfComesBeforeLibcs) {
  EXPECT_EQ(dlsym(RTLD_DEFAULT, "snprintf"), reinterpret_cast<void*>(&snprintf));
  EXPECT_NE(dlsym(RTLD_DEFAULT, "snprintf"), dlsym(RTLD_NEXT, "snprintf"));
}

// glibc's vsnprintf of one int, as snprintf would write it into `size` bytes.
std::pair<int, std::string> GlibcInt(size_t size, int va_anchor, ...) {
  std::string out(16, '#');
  va_list args;
  va_start(args, va_anchor);
  const int n = std::vsnprintf(out.data(), size, "%d", args);
  va_end(args);
  return {n, out};
}

// libxlsxwriter's cell names' row numbers, snprintf(…, "%d", row) on a guarded thread: the same
// text, truncation and return value as glibc's, for every size of buffer.
TEST(XlsxCellText, RowNumbersAreGlibcs) {
  const XlsxCellText by_fmt;
  for (const int value : {0, 1, 9, 10, 1048576, -1, -42, std::numeric_limits<int>::max(), std::numeric_limits<int>::min()}) {
    for (size_t size = 0; size <= 13; ++size) {
      std::string out(16, '#');
      const int n = snprintf(out.data(), size, "%d", value);
      EXPECT_EQ(std::make_pair(n, out), GlibcInt(size, 0, value)) << value << " in " << size << " bytes";
    }
  }
  char text[32];
  EXPECT_EQ(snprintf(text, sizeof(text), "%d-%d", 3, 4), 3);  // not libxlsxwriter's: glibc's
  EXPECT_STREQ(text, "3-4");
}

// Most numbers, a compare's float32 statistics and their differences above all, are written from
// their shortest digits, and those are glibc's bytes; the rest are left to fmt's exact path.
TEST(XlsxCellText, MostNumbersAreWrittenFromTheirShortestDigits) {
  size_t decided = 0, statistics = 0, statistics_decided = 0;
  std::mt19937_64 rng(7);
  std::normal_distribution<double> normal(0, 1);
  for (int i = 0; i < 20000; ++i) {
    const double stat = static_cast<double>(static_cast<float>(normal(rng)));
    ++statistics;
    char text[32];
    if (char* end = WriteShortest16G(text, stat)) {
      ++statistics_decided;
      ASSERT_EQ(std::string(text, end), Glibc("%.16G", stat)) << stat;
    }
  }
  for (const double x : Numbers()) {
    char text[32];
    if (char* end = WriteShortest16G(text, x)) {
      ++decided;
      ASSERT_EQ(std::string(text, end), Glibc("%.16G", x)) << x;
    }
  }
  EXPECT_GT(statistics_decided, statistics / 2);
  EXPECT_GT(decided, Numbers().size() / 2);
  char text[32];
  EXPECT_EQ(WriteShortest16G(text, 1234567890123456.5), nullptr);  // S ends in 5: a tie, or not
  EXPECT_EQ(WriteShortest16G(text, 1e-308), nullptr);  // S = 1E-308 lies above v, a decade up
}

// A null text, which libxlsxwriter does not pass, is glibc's "(null)".
TEST(XlsxCellText, NullTextIsGlibcs) {
  const char* volatile null_text = nullptr;  // volatile: out of sight of the compiler's format check
  EXPECT_EQ(Printed(true, [&](FILE* f) { fprintf(f, "<c r=\"%s\" t=\"inlineStr\"><is><t>%s</t></is></c>", "A1", null_text); }),
            Printed(false, [&](FILE* f) { fprintf(f, "<c r=\"%s\" t=\"inlineStr\"><is><t>%s</t></is></c>", "A1", null_text); }));
}

// Which of the two wrote a cell shows under a rounding mode other than to-nearest, which glibc's
// printf follows and fmt does not (nothing in the program changes the mode): 1/6 to 16 digits is
// ...667 to the nearest and ...666 toward zero.
class TowardZero {
 public:
  TowardZero() { std::fesetround(FE_TOWARDZERO); }
  ~TowardZero() { std::fesetround(FE_TONEAREST); }
};

const double kSixth = 1.0 / 6;  // rounded to nearest, before any test changes the mode

TEST(XlsxCellText, CellsOnAGuardedThreadAreWrittenByFmt) {
  const TowardZero mode;
  EXPECT_EQ(Glibc("%.16G", kSixth), "0.1666666666666666");
  EXPECT_EQ(Printed(true, [&](FILE* f) { fprintf(f, "<c r=\"%s\"><v>%.16G</v></c>", "A1", kSixth); }),
            "<c r=\"A1\"><v>0.1666666666666667</v></c>");
  EXPECT_EQ(Printed(false, [&](FILE* f) { fprintf(f, "<c r=\"%s\"><v>%.16G</v></c>", "A1", kSixth); }),
            "<c r=\"A1\"><v>0.1666666666666666</v></c>");
}

TEST(XlsxCellText, NumberCellsAreGlibcsPercent16G) {
  for (const double x : Numbers()) {
    ASSERT_EQ(Printed(true, [&](FILE* f) { fprintf(f, "<c r=\"%s\"><v>%.16G</v></c>", "XFD1048576", x); }),
              Glibc("<c r=\"%s\"><v>%.16G</v></c>", "XFD1048576", x))
        << std::bit_cast<uint64_t>(x);
    ASSERT_EQ(Printed(true, [&](FILE* f) { __fprintf_chk(f, 1, "<c r=\"%s\" s=\"%d\"><v>%.16G</v></c>", "B7", 12, x); }),
              Glibc("<c r=\"%s\" s=\"%d\"><v>%.16G</v></c>", "B7", 12, x))
        << std::bit_cast<uint64_t>(x);
  }
}

TEST(XlsxCellText, InlineStringCellsAreGlibcs) {
  for (const char* text : {"", "a", " lead", "trail ", "&amp;&lt;x&gt;", "Functional.linear.0.forward.input.0"}) {
    EXPECT_EQ(Printed(true, [&](FILE* f) { fprintf(f, "<c r=\"%s\" t=\"inlineStr\"><is><t>%s</t></is></c>", "A2", text); }),
              Glibc("<c r=\"%s\" t=\"inlineStr\"><is><t>%s</t></is></c>", "A2", text));
    EXPECT_EQ(Printed(true, [&](FILE* f) {
                __fprintf_chk(f, 1, "<c r=\"%s\" s=\"%d\" t=\"inlineStr\"><is><t xml:space=\"preserve\">%s</t></is></c>",
                              "C3", -7, text);
              }),
              Glibc("<c r=\"%s\" s=\"%d\" t=\"inlineStr\"><is><t xml:space=\"preserve\">%s</t></is></c>", "C3", -7, text));
  }
}

// Infinities and NaNs, which libxlsxwriter would print as glibc spells them, and formats that are
// not cells, go to glibc whatever the thread.
TEST(XlsxCellText, OtherCallsAreGlibcs) {
  for (const double x : {HUGE_VAL, -HUGE_VAL, std::nan(""), -std::nan("")}) {
    EXPECT_EQ(Printed(true, [&](FILE* f) { fprintf(f, "<c r=\"%s\"><v>%.16G</v></c>", "A1", x); }),
              Glibc("<c r=\"%s\"><v>%.16G</v></c>", "A1", x));
  }
  EXPECT_EQ(Printed(true, [&](FILE* f) { fprintf(f, "<c r=\"%s\"><v>%.15G</v></c>", "A1", 0.1); }),
            Glibc("<c r=\"%s\"><v>%.15G</v></c>", "A1", 0.1));
  EXPECT_EQ(Printed(true, [&](FILE* f) { fprintf(f, "<row r=\"%d\">%s", 5, "x"); }), "<row r=\"5\">x");
  EXPECT_EQ(Printed(false, [&](FILE* f) { fprintf(f, "<c r=\"%s\"><v>%.16G</v></c>", "A1", 0.1); }),
            "<c r=\"A1\"><v>0.1</v></c>");
}

// The first sheet's XML of the workbook at `path`.
std::string SheetOf(const std::string& path) {
  const std::string package = ReadFile(path);
  auto archive = ZipArchive::Open(AsBytes(package), path);
  if (!archive.ok()) return archive.status().ToString();
  const ZipEntry* entry = archive->Find("xl/worksheets/sheet1.xml");
  if (entry == nullptr) return "no sheet";
  auto xml = archive->ReadMember(*entry, 64 << 20);
  return xml.ok() ? *xml : xml.status().ToString();
}

// A constant_memory sheet of numbers and texts, plain and styled, written by libxlsxwriter.
std::string SheetXml(const std::string& path, bool ours) {
  lxw_workbook_options options{};
  options.constant_memory = LXW_TRUE;
  lxw_workbook* book = workbook_new_opt(path.c_str(), &options);
  lxw_worksheet* sheet = workbook_add_worksheet(book, nullptr);
  lxw_format* bold = workbook_add_format(book);
  format_set_bold(bold);
  const std::vector<double> numbers = Numbers();
  {
    std::optional<XlsxCellText> by_fmt;
    if (ours) by_fmt.emplace();
    for (size_t i = 0; i < 20000; ++i) {
      const auto row = static_cast<lxw_row_t>(i);
      worksheet_write_number(sheet, row, 0, numbers[i], nullptr);
      worksheet_write_number(sheet, row, 1, numbers[i + 20000], bold);
      worksheet_write_string(sheet, row, 2, i % 3 == 0 ? " spaced " : "a<b&c", i % 2 == 0 ? bold : nullptr);
    }
  }
  EXPECT_EQ(workbook_close(book), LXW_NO_ERROR);
  return SheetOf(path);
}

// libxlsxwriter's own calls reach fmt on a guarded thread (TowardZero above), and glibc elsewhere.
TEST(XlsxCellText, LibxlsxwritersCellsReachFmt) {
  TempDir dir;
  const auto sixth = [&](bool ours) {
    const std::string path = dir.Path(ours ? "fmt.xlsx" : "glibc.xlsx");
    lxw_workbook_options options{};
    options.constant_memory = LXW_TRUE;
    lxw_workbook* book = workbook_new_opt(path.c_str(), &options);
    lxw_worksheet* sheet = workbook_add_worksheet(book, nullptr);
    {
      const TowardZero mode;
      std::optional<XlsxCellText> by_fmt;
      if (ours) by_fmt.emplace();
      worksheet_write_number(sheet, 0, 0, kSixth, nullptr);
      worksheet_write_number(sheet, 1, 0, 1, nullptr);  // row 1 is written when row 2 begins
    }
    EXPECT_EQ(workbook_close(book), LXW_NO_ERROR);
    return SheetOf(path);
  };
  EXPECT_NE(sixth(true).find("<v>0.1666666666666667</v>"), std::string::npos);
  EXPECT_NE(sixth(false).find("<v>0.1666666666666666</v>"), std::string::npos);
}

TEST(XlsxCellText, LibxlsxwritersSheetIsTheSameByteForByte) {
  TempDir dir;
  const std::string glibc = SheetXml(dir.Path("glibc.xlsx"), false);
  const std::string ours = SheetXml(dir.Path("fmt.xlsx"), true);
  ASSERT_GT(glibc.size(), 1000000u);
  EXPECT_NE(glibc.find("<c r=\"B2\" s=\"1\"><v>"), std::string::npos);
  EXPECT_NE(glibc.find("<t xml:space=\"preserve\"> spaced </t>"), std::string::npos);
  EXPECT_EQ(ours, glibc);
}

}  // namespace
}  // namespace msprobe::compare::internal
