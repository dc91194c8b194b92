// What one msprobe-compare run compares: its pairs of dumps (jobs/compare_inputs) and the mappings
// their rows match with (-dm, -cm, -am, -lm, -fm), loaded once for all of them.
#pragma once

#include <vector>

#include "jobs/compare_inputs_internal.h"
#include "msprobe/compare/jobs/compare_job.h"
#include "msprobe/compare/rows/layer_mapping.h"
#include "msprobe/compare/rows/match.h"
#include "msprobe/compare/rows/name_mapping.h"

namespace msprobe::compare::internal {

struct Mappings {
  DataMapping data;
  CellMapping cell;
  ApiMapping api;
  LayerMapping layer;
  MatchOptions match;
};
Result<Mappings> LoadMappings(const CompareOptions& options);

struct RunPlan {
  std::vector<ComparePairSpec> specs;
  std::vector<std::string> skipped_inputs;  // ComparePairs::skipped
  Mappings mappings;
};
// The run's plan, once its outputs are ready (output_paths_internal.h).
Result<RunPlan> PlanRun(const CompareOptions& options);

}  // namespace msprobe::compare::internal
