// Which kind of compare result a header belongs to, for msprobe merge_result (docs/formats.md §5.3): the
// union of the current (G3) and mstt (G2) headers, and the compare indexes each kind can merge (§5.4).
#pragma once

#include <string>
#include <vector>

namespace msprobe::compare {

enum class MergeMode : uint8_t { kUnknown, kAll, kSummary, kMd5 };

// The mode whose header `header` is exactly (names and order), or kUnknown.
MergeMode DetectMergeMode(const std::vector<std::string>& header);

// The mergeable indexes of a mode, in msprobe's order: the default when the config names none.
// Empty for kMd5 and kUnknown.
const std::vector<std::string>& MergeableIndexes(MergeMode mode);

// The helper columns every merge reads for the "NPU:{x}  Bench:{y}" replacement.
inline constexpr const char* kTargetMaxColumn = "NPU max";
inline constexpr const char* kGoldenMaxColumn = "Bench max";
inline constexpr const char* kTargetNameColumn = "NPU Name";

}  // namespace msprobe::compare
