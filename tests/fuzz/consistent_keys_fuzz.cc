// Fuzzes --consistent_check's reading of entry keys (parse rules, layer, module mapping, call
// renumbering) and its pairing: each line is a key, the first half of the lines the training dump's.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/compare/rows/consistent_match.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace msprobe::compare;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string_view> lines;
  for (size_t start = 0; start <= text.size();) {
    const size_t end = std::min(text.find('\n', start), text.size());
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  for (ConsistentBackend backend : {ConsistentBackend::kFsdp, ConsistentBackend::kMegatron}) {
    VerlParseFilter keep(backend);
    std::vector<OpRow> train, rollout;
    for (size_t i = 0; i < lines.size(); ++i) {
      OpRow row;
      row.api = std::string(lines[i]);
      row.name = row.api + ".output.0";
      row.forward_call_order = static_cast<int>(i % 3);
      if (i < lines.size() / 2) {
        if (keep(lines[i])) train.push_back(row);
      } else {
        rollout.push_back(row);
      }
    }
    (void)BuildConsistentRows(train, rollout, {backend, ";  "}, "fuzz");
  }
  return 0;
}
