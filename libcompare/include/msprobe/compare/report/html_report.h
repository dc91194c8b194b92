// compare_report_{ts}.html (docs/compare.md §10): one self-contained page of a compare run, with the
// charting library, its script, style and data inline, so it opens from disk on an air-gapped machine.
//
// Built incrementally: a ReportPart per compared pair, filled row by row, then handed to the
// HtmlReport; Write encodes every part's columns as the page's data and writes the page atomically.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "msprobe/compare/table/result_table.h"
#include "msprobe/compare/report/report_part.h"
#include "msprobe/dump/util/status.h"

namespace msprobe::compare {

// A row of the page: the part (pair) and its 0-based row there.
struct ReportRowLink {
  size_t part = 0;
  size_t row = 0;
};

// An anomaly of overflow_check's analyze file (docs/compare.md §11): the page links it to the
// first row of that API in the rank's part.
struct ReportAnomaly {
  int rank = 0;
  std::string op_name;
};

struct HtmlReportMeta {
  std::string title;                       // e.g. the two compared paths
  std::optional<ReportRowLink> first_diff;   // -da's first diff
  std::optional<ReportRowLink> first_cause;  // --attribute's first cause
  std::string first_cause_name;              // its API and kind: "Functional.gelu.0.forward (op)"
  // The rows not compared (docs/compare.md §5.4), shown beside the counts per Result.
  uint64_t unmatched_target = 0, unmatched_golden = 0, unreadable_tensors = 0;
  // The compare's pass count (rows compared whose Result is pass), shown for "pass": a row not compared
  // is no pass whatever its Result. Unset (a recompute's page): the rows' Results are counted.
  std::optional<uint64_t> passed;
  std::string anomaly_file;                  // overflow_check's anomaly_analyze_{ns}.json, "" for none
  std::vector<ReportAnomaly> anomalies;
  // The first error is found from the rows themselves (the first row whose Result is error).
};

class HtmlReport {
 public:
  void AddPart(ReportPart part) { parts_.push_back(std::move(part)); }

  // Reads each part's construct.json for the module tree and writes the page to `path` atomically.
  Status Write(const std::string& path, const HtmlReportMeta& meta) const;

 private:
  std::vector<ReportPart> parts_;
};

// The page of one finished table, as label "" with the module tree of `construct_json`.
Status WriteHtmlReport(const std::string& path, const ResultTable& table, const std::string& construct_json,
                       const HtmlReportMeta& meta);

}  // namespace msprobe::compare
