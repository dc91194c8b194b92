// msprobe-dump recompute --html: a dump's checked calls as a part of the HTML report. Each call is a
// row named by its API; the page's verdicts are ok → pass, unsupported → warning (not checked),
// exceeds and unreadable (not checked, and the run fails) → error, and its chart is MaxRelativeErr in units of the tolerance (over 1: beyond it).
#pragma once

#include <string>
#include <vector>

#include "msprobe/compare/report/report_part.h"
#include "msprobe/ops/check/dump_check.h"

namespace msprobe::compare::internal {

ReportPart MakeRecomputePart(const std::string& label, const std::string& dump_json,
                             const std::vector<ops::CallCheck>& calls);

}  // namespace msprobe::compare::internal
