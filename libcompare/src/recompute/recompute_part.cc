#include "recompute/recompute_part_internal.h"

#include <filesystem>
#include <limits>

#include "recompute/recompute_table_internal.h"

namespace msprobe::compare::internal {
namespace {

// The recompute table's columns the page shows as metrics: all but the API name, dtype and reason,
// which are the row's name, dtype and message.
constexpr size_t kShownColumns[] = {1, 3, 4, 5, 6, 7, 8, 9, 10};  // Op, Output, Supported, … Verdict
constexpr size_t kDtypeColumn = 2, kReasonColumn = 11;

Verdict PageVerdict(ops::SelfVerdict verdict) {
  switch (verdict) {
    case ops::SelfVerdict::kOk: return Verdict::kPass;
    case ops::SelfVerdict::kUnsupported: return Verdict::kWarning;
    case ops::SelfVerdict::kExceeds:
    case ops::SelfVerdict::kUnreadable: break;  // it fails the run as an exceeding call does
  }
  return Verdict::kError;
}

}  // namespace

ReportPart MakeRecomputePart(const std::string& label, const std::string& dump_json,
                             const std::vector<ops::CallCheck>& calls) {
  const std::vector<std::string> header = RecomputeHeader();
  ReportColumns columns{"RECOMPUTE", {}, "MaxRelativeErr / Tolerance"};
  for (size_t c : kShownColumns) columns.metrics.push_back(header[c]);
  ReportPart part(label, std::move(columns),
                  (std::filesystem::path(dump_json).parent_path() / "construct.json").string());
  std::vector<Cell> shown;
  for (const ops::CallCheck& call : calls) {
    const std::vector<Cell> cells = RecomputeCells(call);
    shown.clear();
    for (size_t c : kShownColumns) shown.push_back(cells[c]);
    part.AddRow(ReportRow{call.key, call.key, call.key, cells[kDtypeColumn].text(), "", cells[kReasonColumn].text(),
                          PageVerdict(call.check.verdict),
                          call.check.Measured() ? call.check.Excess() : std::numeric_limits<double>::quiet_NaN(), shown});
  }
  return part;
}

}  // namespace msprobe::compare::internal
