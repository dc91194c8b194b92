// MoE outputs with scratch rows (docs/compare.md §4.2 step 3): npu_grouped_matmul and npu_dequant_swiglu_quant
// write their outputs only up to a valid length, the sum of their group_list / group_index kwarg, and
// msprobe's tensor compare reads the target's output rows past it as zeros.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/compare/table/result_row.h"
#include "msprobe/dump/text/json_file.h"
#include "msprobe/dump/util/status.h"

namespace msprobe::compare {

// An entry whose key names a scratch-row API, and the file of the kwarg tensor giving its valid length.
struct ScratchEntry {
  std::string key;              // the dump.json entry key: ResultRow::api of its rows
  std::string group_data_name;  // data_name of input_kwargs[group_list | group_index], ending in ".pt"
};

// The entry's ScratchEntry when its key contains one of the API names and that kwarg is a tensor saved
// as a .pt file; nullopt otherwise (then msprobe does not clean it either).
std::optional<ScratchEntry> ScratchEntryOf(std::string_view key, const JsonValue& entry);

// The valid length the group tensor at `path` gives: the sum of its elements, for int8/16/32/64, uint8
// and bool tensors. Unsupported for another dtype, InvalidInput for a negative sum, the reader's error
// for a file that cannot be read: msprobe then leaves the output as it is.
Result<int64_t> GroupValidLength(const std::string& path);

// Sets target_valid_rows of the rows of these entries whose NPU name contains "output" (tensor mode,
// target side: dump.json at `target_json`). Entries whose group tensor gives no length are left alone.
void MarkScratchRows(const std::vector<ScratchEntry>& entries, const std::string& target_json,
                     std::vector<ResultRow>* rows);

}  // namespace msprobe::compare
