#include "msprobe/compare/output/row_place.h"

#include <string_view>
#include <vector>

#include "output/xlsx_summary_sheet_internal.h"

namespace msprobe::compare {
namespace {

std::vector<const std::string*> OutputsEndingIn(const PairResult& pair, std::string_view extension) {
  std::vector<const std::string*> files;
  for (const std::string& file : pair.outputs) {
    if (file.ends_with(extension)) files.push_back(&file);
  }
  return files;
}

}  // namespace

RowPlace LocateRow(const PairResult& pair, size_t index, size_t max_csv_rows, size_t max_sheet_rows) {
  if (const std::vector<const std::string*> csv = OutputsEndingIn(pair, ".csv"); !csv.empty()) {
    // One csv holds every row; parts hold max_csv_rows each, in order.
    const size_t part = csv.size() == 1 ? 0 : index / max_csv_rows;
    const size_t first = csv.size() == 1 ? 0 : part * max_csv_rows;
    if (part < csv.size()) return {*csv[part], index - first + 2, ""};
  }
  if (const std::vector<const std::string*> xlsx = OutputsEndingIn(pair, ".xlsx"); !xlsx.empty()) {
    for (const internal::XlsxDataSheet& sheet : internal::PlanSheets(pair.rows, max_sheet_rows)) {
      if (index >= sheet.first_row && index < sheet.first_row + sheet.rows) {
        return {*xlsx.front(), index - sheet.first_row + 2, sheet.name};
      }
    }
  }
  return {pair.RowFile(), index + 2, ""};
}

std::string RowPlaceText(const RowPlace& place) {
  std::string text = place.file;
  if (!place.sheet.empty()) text += " sheet " + place.sheet;
  return text + " row " + std::to_string(place.row);
}

std::string RowRefText(const PairResult& pair, const RowRef& ref) {
  // One line: the kernel compare's messages end in msprobe's line breaks ("…\nDump file is not ndarray.\n").
  std::string message = ref.err_message;
  while (!message.empty() && message.back() == '\n') message.pop_back();
  for (size_t at = message.find('\n'); at != std::string::npos; at = message.find('\n', at)) message.replace(at, 1, "; ");
  return RowPlaceText(LocateRow(pair, ref.row)) + ": " + ref.target_name + ": " + std::string(VerdictName(ref.result)) +
         ": " + message;
}

}  // namespace msprobe::compare
