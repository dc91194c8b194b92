// The data rows of a workbook, kept on disk until the workbook can be written. A streamed compare
// learns how many rows it has (which decides the sheets) only at its end, and -da its first diff
// only after every rank: the rows are formatted as they come, encoded into an unnamed temporary
// file beside the output (O_TMPFILE: nothing to clean up, even after a crash), and read back in
// batches of rows to be replayed into libxlsxwriter at the end (read, not mapped: a mapping's pages
// would count as the process's memory). Memory holds one offset per row. Rows may be read back
// while later ones are appended (a workbook written as the rows come, docs/compare.md §6.2).
//
// A row is a one-byte tag (the caller's: the compare's verdict) and its cells in column order, each
// a kind byte and its value: a text as a 32-bit length and its bytes, a float or int as 8 bytes, a
// bool as 1.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/compare/table/result_row.h"
#include "msprobe/compare/xlsx/xlsx_row_batch.h"
#include "msprobe/dump/util/status.h"

namespace msprobe::compare::internal {

// Rows read back from a spool: each row's tag, and its cells for a sheet.
class SpooledRows {
 public:
  uint8_t Tag(size_t row) const { return static_cast<uint8_t>(bytes_[Begin(row)]); }
  // Adds row `row`'s cells to `batch` (in an open row), each with `style`.
  void Decode(size_t row, uint32_t style, XlsxRowBatch* batch) const;

 private:
  friend class XlsxRowSpool;
  size_t Begin(size_t row) const { return offsets_[row - first_] - offsets_[0]; }
  std::string bytes_;
  size_t first_ = 0;
  std::vector<uint64_t> offsets_;  // rows first_.. and one past the last, as in the spool
};

class XlsxRowSpool {
 public:
  // Encodes one row: its tag, then its cells through the visitor.
  class RowEncoder final : public ResultCellVisitor {
   public:
    explicit RowEncoder(std::string* out) : out_(out) {}
    void Tag(uint8_t tag) { out_->push_back(static_cast<char>(tag)); }
    void Text(std::string_view text) override;
    void Value(const Cell& cell) override;

   private:
    std::string* out_;
  };
  // Encodes the caller's row `row` (its tag first). Called concurrently for distinct rows.
  using EncodeRow = std::function<void(size_t row, RowEncoder* encoder)>;

  // A spool in the directory of `output_path`.
  static Result<XlsxRowSpool> Create(const std::string& output_path);
  XlsxRowSpool(XlsxRowSpool&& other) noexcept;  // only before use: the lock is not moved
  XlsxRowSpool& operator=(XlsxRowSpool&&) = delete;
  XlsxRowSpool(const XlsxRowSpool&) = delete;
  ~XlsxRowSpool();

  // Appends the caller's rows [0, rows), encoded on all cores and written in order. A row counts
  // (rows(), Read) once its bytes are written.
  Status Append(size_t rows, const EncodeRow& encode);
  size_t rows() const;
  // Rows [first, end), read back. Safe to call concurrently, also with Append.
  Result<SpooledRows> Read(size_t first, size_t end) const;

 private:
  XlsxRowSpool(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}

  std::string path_;               // the output it serves, for errors
  int fd_ = -1;
  mutable std::mutex offsets_mutex_;
  std::vector<uint64_t> offsets_;  // row i is [offsets_[i], offsets_[i + 1]); one past the last row
};

}  // namespace msprobe::compare::internal
