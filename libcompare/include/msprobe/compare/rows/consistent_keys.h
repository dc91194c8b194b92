// msprobe's verl train-vs-rollout compare, --consistent_check --backend fsdp|megatron (docs/compare.md
// §3.9): which target entries are read (the parse rules), and each row's match key: its layer, its
// module renamed to the rollout's, its renumbered call and its suffix.
#pragma once

#include <compare>
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

// The number of a name's first `layers.N`, compared as numbers compare (pandas sorts the merge keys), of
// any length: a fuzzed name's 30-digit layer neither overflows nor meets another. None sorts first, as
// msprobe's -1.
struct LayerNumber {
  std::string digits;  // without leading zeros ("0" for zero); empty when the name has no layer

  bool operator==(const LayerNumber&) const = default;
  std::strong_ordering operator<=>(const LayerNumber& other) const {
    if (auto by_length = digits.size() <=> other.digits.size(); by_length != 0) return by_length;
    return digits <=> other.digits;
  }
};

// A row's key for the train-vs-rollout outer merge.
struct ConsistentKey {
  std::string call_direction;  // the train side's forward calls renumbered by call order
  std::string suffix;          // what the row's name adds to its entry key (".input.0")
  LayerNumber layer;           // the first layers.N
  std::string module_mapping;  // the module as the rollout names it

  bool operator==(const ConsistentKey&) const = default;
  auto operator<=>(const ConsistentKey&) const = default;
};

// The keys of a flattened dump's rows, the training side's (`train`) or the rollout's.
std::vector<ConsistentKey> ConsistentKeys(const std::vector<OpRow>& rows, ConsistentBackend backend, bool train);

}  // namespace msprobe::compare
