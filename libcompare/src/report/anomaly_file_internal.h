// overflow_check's analyze file beside a compare's outputs (docs/compare.md §11): the page shows its
// anomalies when the compare writes into the directory the check wrote into.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "msprobe/compare/report/html_report.h"

namespace msprobe::compare::internal {

struct AnomalyFile {
  std::string name;  // anomaly_analyze_{ns}.json
  std::vector<ReportAnomaly> anomalies;
};

// The newest anomaly_analyze_{ns}.json of `dir` (the largest ns): its "rank_N" lists' op names, in file
// order. nullopt when there is none, or the newest cannot be read as one (it is not the compare's input:
// the page then goes without it).
std::optional<AnomalyFile> FindAnomalyFile(const std::string& dir);

}  // namespace msprobe::compare::internal
