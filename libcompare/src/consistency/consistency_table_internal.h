// The findings `msprobe-dump consistency` writes (docs/consistency.md §5): one row per inconsistency
// or suspect, as csv and as xlsx (inconsistencies filled red, suspects yellow; a summary sheet with
// the counts, the checks that ran and a link to the first inconsistency).
#pragma once

#include <string>
#include <vector>

#include "msprobe/compare/consistency/consistency_job.h"
#include "msprobe/compare/table/cell.h"
#include "msprobe/dump/util/status.h"

namespace msprobe::compare::internal {

std::vector<std::string> ConsistencyHeader();
std::vector<Cell> ConsistencyCells(const ConsistencyFinding& finding);

// Each writes `path` atomically.
Status WriteConsistencyCsv(const std::string& path, const std::vector<ConsistencyFinding>& findings);
Status WriteConsistencyXlsx(const std::string& path, const ConsistencyReport& report);

}  // namespace msprobe::compare::internal
