#include "output/xlsx_data_sheet_internal.h"

#include <utility>

namespace msprobe::compare::internal {
namespace {

uint32_t RowStyle(uint8_t tag, bool first_diff, const CompareStyles& styles) {
  if (first_diff) return styles.first_diff;
  switch (static_cast<Verdict>(tag)) {
    case Verdict::kPass: return 0;
    case Verdict::kWarning: return styles.warning;
    case Verdict::kError: return styles.error;
  }
  return 0;
}

}  // namespace

Status WriteSpooledRows(const XlsxRowSpool& spool, const XlsxDataSheet& data, size_t first, size_t end,
                        const CompareStyles& styles, std::optional<size_t> first_diff_row, XlsxSheet* sheet) {
  std::mutex read_mutex;
  Status read;  // the first failure to read rows back
  MSP_RETURN_IF_ERROR(sheet->WriteRows(end - first, [&](uint64_t from, uint64_t to, XlsxRowBatch* batch) {
    const size_t base = data.first_row + first;
    Result<SpooledRows> spooled = spool.Read(base + from, base + to);
    if (!spooled.ok()) {
      const std::lock_guard<std::mutex> lock(read_mutex);
      if (read.ok()) read = spooled.status();
      return;
    }
    for (uint64_t i = from; i < to; ++i) {
      const size_t row = base + i;
      const uint32_t style = RowStyle(spooled->Tag(row), first_diff_row == row, styles);
      batch->BeginRow(first + i + 2, style);
      spooled->Decode(row, style, batch);
    }
  }));
  return read;
}

Result<std::unique_ptr<XlsxLiveSheet>> XlsxLiveSheet::Start(const std::string& path,
                                                            const std::vector<std::string>& header,
                                                            const XlsxRowSpool* spool, size_t max_rows) {
  MSP_ASSIGN_OR_RETURN(std::unique_ptr<XlsxWorkbook> book, XlsxWorkbook::Create(path, max_rows * header.size()));
  const CompareStyles styles = CompareStyles::AddTo(book.get());
  MSP_ASSIGN_OR_RETURN(XlsxSheet * sheet, book->AddSheet(kOneDataSheet));
  // The autofilter waits for the row count (Finish's caller).
  MSP_RETURN_IF_ERROR(sheet->WriteHeader(header, 0));
  std::unique_ptr<XlsxLiveSheet> live(new XlsxLiveSheet(std::move(book), sheet, spool, max_rows));
  live->styles_ = styles;
  live->thread_ = std::thread([raw = live.get()] { raw->Run(); });
  return live;
}

XlsxLiveSheet::XlsxLiveSheet(std::unique_ptr<XlsxWorkbook> book, XlsxSheet* sheet, const XlsxRowSpool* spool,
                             size_t max_rows)
    : book_(std::move(book)), sheet_(sheet), spool_(spool), max_rows_(max_rows) {}

XlsxLiveSheet::~XlsxLiveSheet() {
  if (!thread_.joinable()) return;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_one();
  thread_.join();
}

void XlsxLiveSheet::Publish(size_t rows) {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    published_ = rows;
  }
  changed_.notify_one();
}

void XlsxLiveSheet::Run() {
  try {
    const Status status = WritePublished();
    const std::lock_guard<std::mutex> lock(mutex_);
    status_ = status;
  } catch (...) {  // an allocation's failure in libxlsxwriter: rethrown by Finish, on the caller's thread
    const std::lock_guard<std::mutex> lock(mutex_);
    thrown_ = std::current_exception();
  }
}

Status XlsxLiveSheet::WritePublished() {
  const XlsxDataSheet data{kOneDataSheet, 0, max_rows_};
  for (;;) {
    size_t rows = 0;
    bool finishing = false;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [&] { return published_ > written_ || finishing_ || stopping_; });
      if (stopping_) return Status::Ok();
      rows = published_;
      finishing = finishing_;
    }
    // More rows than a sheet holds: the workbook is written from the spool instead (Finish's caller).
    if (!FitsOneSheet(rows, max_rows_)) return Status::Ok();
    if (rows > written_) {
      MSP_RETURN_IF_ERROR(WriteSpooledRows(*spool_, data, written_, rows, styles_, std::nullopt, sheet_));
      written_ = rows;
    } else if (finishing) {
      return Status::Ok();
    }
  }
}

Result<std::unique_ptr<XlsxWorkbook>> XlsxLiveSheet::Finish() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    finishing_ = true;
  }
  changed_.notify_one();
  thread_.join();
  if (thrown_) std::rethrow_exception(thrown_);
  MSP_RETURN_IF_ERROR(status_);
  return std::move(book_);
}

}  // namespace msprobe::compare::internal
