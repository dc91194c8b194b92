// What each kind of check did over a run (docs/consistency.md §5): summary.json's "checks", the
// xlsx summary sheet's and the page's list, so that a check that could not run says so and why.
#include <fmt/format.h>

#include "consistency/step_table_internal.h"

namespace msprobe::compare::internal {
namespace {

ConsistencyCheck Ran(std::string name, uint64_t compared) {
  ConsistencyCheck c;
  c.name = std::move(name);
  c.ran = compared > 0;
  c.compared = compared;
  return c;
}

ConsistencyCheck Collectives(const CheckTally& t) {
  ConsistencyCheck c = Ran("collective results", t.collective_values);
  c.detail = c.ran ? fmt::format("{} result argument(s) over their recorded group, {} over all ranks of the step",
                                 t.collective_groups_recorded, t.collective_world)
                   : "no all_reduce, all_gather or broadcast result in the dumps";
  return c;
}

ConsistencyCheck Parameters(const ConsistencyOptions& options, const CheckTally& t, uint64_t parameters,
                            uint64_t grouped) {
  ConsistencyCheck c = Ran("parameters", t.parameter_values);
  switch (options.data_parallel.kind) {
    case DataParallelSpec::Kind::kNone: c.detail = "not checked: --data-parallel none"; break;
    case DataParallelSpec::Kind::kAll: c.detail = "every rank of a step is one data-parallel group (--data-parallel all)"; break;
    case DataParallelSpec::Kind::kGroups: c.detail = "the groups of --data-parallel"; break;
    case DataParallelSpec::Kind::kAuto:
      c.detail = parameters == 0 ? "no module parameters in the dumps (a mix or L0 dump records them)"
                                 : fmt::format("{} of {} parameter(s) had their gradient reduced by a recorded "
                                               "collective, which gave their group",
                                               grouped, parameters);
      break;
  }
  return c;
}

ConsistencyCheck Gradients(const ConsistencyOptions& options, const CheckTally& t) {
  ConsistencyCheck c = Ran("parameter gradients", t.grad_values);
  c.detail = options.grads_reduced ? "--grads-reduced: the recorded gradients are already reduced"
                                   : "not checked: msprobe records each rank's gradient before it is reduced "
                                     "(--grads-reduced when they are recorded after)";
  return c;
}

}  // namespace

std::vector<ConsistencyCheck> DescribeChecks(const ConsistencyOptions& options, const CheckTally& tally,
                                             uint64_t parameters, uint64_t grouped_parameters) {
  ConsistencyCheck z = Ran("z-scores", tally.z_values);
  z.detail = z.ran ? fmt::format("Norm and Max per (step, argument) over 3 ranks or more; |modified z| > {}",
                                 options.z_threshold)
                   : "fewer than 3 ranks hold each argument";
  return {Collectives(tally), Parameters(options, tally, parameters, grouped_parameters), Gradients(options, tally),
          std::move(z)};
}

}  // namespace msprobe::compare::internal
