// The text of a sheet's cells. libxlsxwriter 1.1 writes each cell of a constant_memory sheet with one
// fprintf(), a number as "%.16G". On a big compare that was the workbook thread's largest cost: glibc
// parses the format for every cell and prints the number through its multi-precision code, about
// 250 ns a number, on one thread, for 13 M cells (docs/compare.md §6.2). So we interpose fprintf() and
// __fprintf_chk() (xlsx_cell_text.cc): on a thread holding an XlsxCellText, a call with one of
// libxlsxwriter's six cell formats is written by fmt, the same bytes ("{:.16G}" is "%.16G" for every
// finite double; most numbers from their shortest round-trip digits, which decide it); every other
// call, and every call on another thread, is glibc's. The same goes for snprintf(): libxlsxwriter
// names each cell ("AB12") with snprintf(…, "%d", row), which glibc's printf machinery made a fifth
// of the sheet's work. Should the interposition not take (a static libc, a libxlsxwriter that
// formats cells otherwise), the workbook is the same, only slower to write.
#pragma once

namespace msprobe::compare::internal {

class XlsxCellText {
 public:
  XlsxCellText();
  ~XlsxCellText();
  XlsxCellText(const XlsxCellText&) = delete;
  XlsxCellText& operator=(const XlsxCellText&) = delete;

 private:
  bool previous_;
};

// "%.16G" of a finite double written into `out` (room for 32 bytes) from its shortest round-trip
// digits, returning the end; null, with nothing written, when those digits may not decide it (then
// fmt's exact path writes it). Exposed for its tests.
char* WriteShortest16G(char* out, double number);

}  // namespace msprobe::compare::internal
