// msprobe's right_matmul yaml (docs/compare.md §4.2 step 3, --tensor-postprocess): which tensors, by
// data_name, are multiplied on the right by which calibration tensor before the metrics, on the target
// side and on the golden side.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "msprobe/dump/util/status.h"

namespace msprobe::compare {

struct RightMatmulMap {
  std::string source;  // the yaml
  // data_name (as dump.json records it, with ".pt") → calibration tensor path (relative: to the cwd)
  std::unordered_map<std::string, std::string> target, golden;

  bool empty() const { return target.empty() && golden.empty(); }
};

// One yaml: `mode: right_matmul`, `target_tensor_map` and `golden_tensor_map`, each {calibration path:
// [data_name, ...]}; a data_name listed under two paths takes the later one. An empty document or
// empty maps give an empty map. A path whose value is not a list is skipped, as msprobe skips it,
// with a line in `warnings`. Errors (InvalidInput naming the file and line): not yaml, not a mapping,
// a mode other than right_matmul, a map that is not a mapping, a data_name that is not a scalar.
Result<RightMatmulMap> ParseRightMatmulYaml(std::string_view yaml, const std::string& source,
                                            std::vector<std::string>* warnings);
Result<RightMatmulMap> LoadRightMatmulYaml(const std::string& path, std::vector<std::string>* warnings);

}  // namespace msprobe::compare
