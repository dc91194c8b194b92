// msprobe's verl train-vs-rollout compare, --consistent_check --backend fsdp|megatron (docs/compare.md
// §3.9): which target entries are read (the parse rules), and each row's match key: its layer, its
// module renamed to the rollout's, its renumbered call and its suffix.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/compare/table/op_row.h"

namespace msprobe::compare {

enum class ConsistentBackend : uint8_t { kNone, kFsdp, kMegatron };
std::string_view ConsistentBackendName(ConsistentBackend backend);  // "fsdp", "megatron", ""

// The training side's parse rules, entry by entry in file order: from the top model's backward
// (Qwen2Model, Qwen3Model, Qwen3MoeModel for fsdp; GPTModel for megatron) until the next embedding
// forward (a key whose module part contains Embedding / VocabParallelEmbedding) nothing is read; a key
// of fewer than three dotted parts stops reading too. Stateful: one per dump.
class VerlParseFilter {
 public:
  explicit VerlParseFilter(ConsistentBackend backend) : backend_(backend) {}
  bool operator()(std::string_view key);

 private:
  ConsistentBackend backend_;
  bool parsing_ = true;
};

// A row's key for the train-vs-rollout outer merge.
struct ConsistentKey {
  std::string call_direction;  // the train side's forward calls renumbered by call order
  std::string suffix;          // what the row's name adds to its entry key (".input.0")
  int64_t layer = -1;          // the first layers.N, else -1
  std::string module_mapping;  // the module as the rollout names it

  bool operator==(const ConsistentKey&) const = default;
  auto operator<=>(const ConsistentKey&) const = default;
};

// The keys of a flattened dump's rows, the training side's (`train`) or the rollout's.
std::vector<ConsistentKey> ConsistentKeys(const std::vector<OpRow>& rows, ConsistentBackend backend, bool train);

}  // namespace msprobe::compare
