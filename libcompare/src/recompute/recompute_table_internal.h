// The table `msprobe-dump recompute` writes (docs/ops.md §6): one row per forward API call with its
// self error against the float64 reference, as csv and as xlsx (rows beyond tolerance filled red,
// a summary sheet with the counts and a link to the first of them).
#pragma once

#include <string>
#include <vector>

#include "msprobe/compare/table/cell.h"
#include "msprobe/dump/util/status.h"
#include "msprobe/ops/check/dump_check.h"

namespace msprobe::compare {

std::vector<std::string> RecomputeHeader();
std::vector<Cell> RecomputeCells(const ops::CallCheck& call);

// Each writes `path` atomically.
Status WriteRecomputeCsv(const std::string& path, const std::vector<ops::CallCheck>& calls);
Status WriteRecomputeXlsx(const std::string& path, const std::vector<ops::CallCheck>& calls);

}  // namespace msprobe::compare
