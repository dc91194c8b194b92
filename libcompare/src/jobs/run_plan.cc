#include "jobs/run_plan_internal.h"

#include "jobs/output_paths_internal.h"

namespace msprobe::compare::internal {

Result<Mappings> LoadMappings(const CompareOptions& options) {
  Mappings m;
  m.match.fuzzy = options.fuzzy_match;
  if (!options.data_mapping.empty()) {
    MSP_ASSIGN_OR_RETURN(m.data, LoadDataMapping(options.data_mapping));
  }
  if (options.cell_mapping) {
    MSP_ASSIGN_OR_RETURN(m.cell, LoadCellMapping(options.cell_mapping_yaml));
  }
  if (options.api_mapping) {
    MSP_ASSIGN_OR_RETURN(m.api, LoadApiMapping(options.api_mapping_yaml));
  }
  if (options.layer_mapping) {
    MSP_ASSIGN_OR_RETURN(m.layer, LoadLayerMapping(options.layer_mapping_yaml));
  }
  return m;
}

Result<RunPlan> PlanRun(const CompareOptions& options) {
  const std::vector<std::string> inputs = {options.target_path, options.golden_path, options.stack_path};
  MSP_RETURN_IF_ERROR(PrepareRunOutputs(options, inputs));
  RunPlan plan;
  MSP_ASSIGN_OR_RETURN(ComparePairs pairs, ResolveComparePairs(options.target_path, options.golden_path, options.output_dir));
  plan.specs = std::move(pairs.specs);
  plan.skipped_inputs = std::move(pairs.skipped);
  MSP_ASSIGN_OR_RETURN(plan.mappings, LoadMappings(options));
  return plan;
}

}  // namespace msprobe::compare::internal
