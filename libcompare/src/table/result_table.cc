#include "msprobe/compare/table/result_table.h"

namespace msprobe::compare {
namespace {

const ApiAttribution* AttributionOf(const ResultTable& table, const ResultRow& row) {
  if (table.attributions.empty()) return nullptr;
  static const ApiAttribution kNone{"unknown", Cell::NA(), Cell::NA()};  // a row of no API (never expected)
  return row.attribution >= 0 ? &table.attributions[static_cast<size_t>(row.attribution)] : &kNone;
}

}  // namespace

std::vector<std::string> ResultTable::Header() const {
  std::vector<std::string> header = ResultHeader(mode, with_stack, layout);
  if (!attributions.empty()) header.insert(header.end(), std::begin(kAttributionColumns), std::end(kAttributionColumns));
  if (with_match) header.push_back(kMatchColumn);
  return header;
}

void ResultTable::VisitCells(const ResultRow& row, ResultCellVisitor* visitor) const {
  VisitResultCells(row, mode, with_stack, layout, visitor);
  if (const ApiAttribution* a = AttributionOf(*this, row)) {
    visitor->Text(a->origin);
    visitor->Value(a->target_self_err);
    visitor->Value(a->golden_self_err);
  }
  if (with_match) visitor->Text(MatchText(row.match_origin, row.align_score));
}

std::vector<Cell> ResultTable::Cells(const ResultRow& row) const {
  std::vector<Cell> cells = ResultCells(row, mode, with_stack, layout);
  if (const ApiAttribution* a = AttributionOf(*this, row)) {
    cells.insert(cells.end(), {Cell::Text(a->origin), a->target_self_err, a->golden_self_err});
  }
  if (with_match) cells.push_back(Cell::Text(MatchText(row.match_origin, row.align_score)));
  return cells;
}

}  // namespace msprobe::compare
