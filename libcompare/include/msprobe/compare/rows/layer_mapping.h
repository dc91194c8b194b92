// -lm, layer mapping (docs/compare.md §3.7): pairs the entries of a MindSpore dump with those of a
// PyTorch dump through each side's module tree (construct.json beside dump.json, stack.json when
// present) and the user's per-class renaming rules, and turns the pairs into a -dm style row mapping.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "msprobe/compare/rows/name_mapping.h"
#include "msprobe/compare/table/op_row.h"
#include "msprobe/dump/util/status.h"

namespace msprobe::compare {

// What -lm reads of one dump: the keys of dump.json's "data" in file order, construct.json's parent
// links and stack.json's lines per entry (empty when there is no stack.json).
struct LayerDumpInfo {
  std::string framework;  // "mindspore" or "pytorch" (mindtorch counts as mindspore)
  std::string source;     // the dump.json path, for errors
  std::vector<std::string> keys;
  std::unordered_map<std::string, std::string> parent;  // entry → parent module entry; null parents absent
  std::unordered_map<std::string, std::vector<std::string>> stack;
};

// Reads the keys of `dump_json` and the construct.json (required) and stack.json (optional) beside it.
Result<LayerDumpInfo> ReadLayerDumpInfo(const std::string& dump_json, const std::string& framework);

// msprobe's api mapping: every target entry → its golden entry, "" when none pairs.
Result<std::unordered_map<std::string, std::string>> PairLayerEntries(const LayerDumpInfo& target,
                                                                       const LayerDumpInfo& golden,
                                                                       const LayerMapping& rules);

// The row mapping: every target row of a paired entry → the golden row with the same suffix under the
// paired entry, else "N/A"; every row of an unpaired entry → "N/A" (msprobe's generate_data_mapping).
DataMapping LayerDataMapping(const std::unordered_map<std::string, std::string>& entry_pairs,
                             const std::vector<OpRow>& target_rows, const std::vector<OpRow>& golden_rows);

}  // namespace msprobe::compare
