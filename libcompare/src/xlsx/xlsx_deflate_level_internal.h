// The zlib level libxlsxwriter deflates a workbook at. libxlsxwriter 1.1 packs the workbook with
// minizip at zlib's default level 6 and has no option for it, and that deflate, serial, was half
// of a 64-rank merge's time. So we interpose zlib's deflateInit2_ (xlsx_deflate_level.cc): while a
// thread holds an XlsxDeflateLevel, a deflate it starts at the default level uses ours instead;
// every other deflate in the process is left alone. Should the interposition not take (a static
// zlib, another entry point), the workbook is the same, only slower to write.
#pragma once

namespace msprobe::compare::internal {

class XlsxDeflateLevel {
 public:
  explicit XlsxDeflateLevel(int level);
  ~XlsxDeflateLevel();
  XlsxDeflateLevel(const XlsxDeflateLevel&) = delete;
  XlsxDeflateLevel& operator=(const XlsxDeflateLevel&) = delete;

 private:
  int previous_;
};

}  // namespace msprobe::compare::internal
