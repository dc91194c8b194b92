// The deflate libxlsxwriter packs a workbook with. libxlsxwriter 1.1 zips the workbook through
// minizip and zlib at zlib's default level 6, with no option for it, and that deflate, serial, was
// a third of a big compare's workbook (docs/compatibility.md). So we interpose zlib's deflateInit2_,
// deflate, deflateEnd and crc32 (xlsx_package_deflate.cc): a raw deflate that a thread holding an
// XlsxPackageDeflate starts at the default level runs on ISA-L's level 1 instead (3× zlib's level 1,
// 7% smaller), in 1 MiB blocks on TBB's threads, and minizip's crc32 of it is ISA-L's (the same
// value, several times faster); every other deflate and crc32 in the process is zlib's, untouched.
// Should the interposition not take (a static zlib, another entry point), the workbook is the same,
// only slower to write.
#pragma once

namespace msprobe::compare::internal {

class XlsxPackageDeflate {
 public:
  XlsxPackageDeflate();
  ~XlsxPackageDeflate();
  XlsxPackageDeflate(const XlsxPackageDeflate&) = delete;
  XlsxPackageDeflate& operator=(const XlsxPackageDeflate&) = delete;

 private:
  bool previous_;
};

}  // namespace msprobe::compare::internal
