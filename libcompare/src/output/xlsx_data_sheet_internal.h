// The compare workbook's data sheets, written from its row spool (xlsx/xlsx_row_spool_internal.h):
// all at once when the workbook is committed, or, when the rows are final as they come and fit one
// sheet, by XlsxLiveSheet on a thread of its own while the compare runs, so that libxlsxwriter's
// serial writing is not a chain after the compare (docs/compare.md §6.2).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "msprobe/compare/xlsx/xlsx_workbook.h"
#include "msprobe/dump/util/status.h"
#include "output/xlsx_summary_sheet_internal.h"
#include "xlsx/xlsx_row_spool_internal.h"

namespace msprobe::compare::internal {

// Writes rows [first, end) of `data` (spool rows data.first_row + first, …) to `sheet` as its rows
// first + 2, …: each row filled by its verdict, the spool's row `first_diff_row` orange.
Status WriteSpooledRows(const XlsxRowSpool& spool, const XlsxDataSheet& data, size_t first, size_t end,
                        const CompareStyles& styles, std::optional<size_t> first_diff_row, XlsxSheet* sheet);

// A compare workbook whose one data sheet (kOneDataSheet) is written as the spool's rows come.
class XlsxLiveSheet {
 public:
  // Creates `path`'s workbook with the compare styles and its one data sheet (`header` in its first
  // row), and starts writing the rows of `spool` that Publish announces while they fit that sheet
  // (FitsOneSheet with `max_rows`).
  static Result<std::unique_ptr<XlsxLiveSheet>> Start(const std::string& path, const std::vector<std::string>& header,
                                                      const XlsxRowSpool* spool, size_t max_rows);
  ~XlsxLiveSheet();  // stops writing; a workbook not taken is discarded
  XlsxLiveSheet(const XlsxLiveSheet&) = delete;
  XlsxLiveSheet& operator=(const XlsxLiveSheet&) = delete;

  // The spool holds `rows` rows now.
  void Publish(size_t rows);
  // Waits until the published rows are written (they must fit the sheet), then hands over the workbook;
  // sheet() and styles() stay valid with it.
  Result<std::unique_ptr<XlsxWorkbook>> Finish();
  XlsxSheet* sheet() const { return sheet_; }
  const CompareStyles& styles() const { return styles_; }

 private:
  XlsxLiveSheet(std::unique_ptr<XlsxWorkbook> book, XlsxSheet* sheet, const XlsxRowSpool* spool, size_t max_rows);
  void Run();
  Status WritePublished();

  std::unique_ptr<XlsxWorkbook> book_;
  XlsxSheet* sheet_;
  CompareStyles styles_;
  const XlsxRowSpool* spool_;
  size_t max_rows_;
  size_t written_ = 0;

  std::mutex mutex_;
  std::condition_variable changed_;
  size_t published_ = 0;
  bool finishing_ = false;  // write what is published, then stop
  bool stopping_ = false;   // stop now
  Status status_;           // the writer's first failure
  std::exception_ptr thrown_;
  std::thread thread_;      // last: started once the rest is set
};

}  // namespace msprobe::compare::internal
