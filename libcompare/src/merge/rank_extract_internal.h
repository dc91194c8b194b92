// One per-rank compare result as msprobe-merge needs it: the rows of the configured APIs and the
// values of the compare indexes, read in parallel (RankReader) and consumed in rank order; and as
// bytes, for process 0 of a distributed merge (docs/distributed.md §6).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "merge/merge_inputs_internal.h"
#include "msprobe/compare/merge/compare_result_reader.h"
#include "msprobe/compare/merge/merge_config.h"
#include "msprobe/compare/merge/merge_table.h"

namespace msprobe::compare {

// What one result contributes. The names and text values view `data`, which stays in place when
// the extract moves.
struct RankData {
  CompareResultColumns table;
  std::deque<std::string> replaced;  // "NPU:…  Bench:…" texts (a deque never moves its strings)
};
struct RankExtract {
  MergeInput input;
  std::vector<std::string> warnings;          // in the order msprobe logs them
  bool usable = false;                        // false: dropped or empty
  std::vector<std::string> indexes;           // what was read: the config's list, or the mode's full list
  std::unique_ptr<RankData> data;
  std::vector<std::string_view> names;        // full names in first-seen order (repeats are left to MergeTable)
  std::vector<std::vector<MergeValue>> values;  // per index, aligned with names
  // For the error when nothing merges: the indexes its mode has when the config's are not all among
  // them (it was dropped), and the first few APIs ("Functional.linear") of rows no `api` matched.
  std::vector<std::string> mode_indexes;
  std::vector<std::string> other_apis;
};

class RankReader {
 public:
  explicit RankReader(const MergeConfig& config);
  RankExtract Read(const MergeInput& input) const;

 private:
  // The first api at or after `a` whose pattern `name` holds, or patterns_.size().
  size_t FirstMatch(std::string_view name, size_t a) const;
  // docs/formats.md §5.5 steps 2–5 over the kept rows (rank_extract.cc).
  void Extract(const std::vector<uint32_t>& first_api, RankExtract* out) const;

  const MergeConfig& config_;
  std::vector<std::string> patterns_;
};

// The items of `wanted` that `have` lacks.
std::vector<std::string> MissingFrom(const std::vector<std::string>& wanted, const std::vector<std::string>& have);
// msprobe's warning lines for a result whose indexes differ from the others'.
std::vector<std::string> InconsistentWarnings(uint64_t rank, const std::vector<std::string>& missing);

// An extract as a message between processes (msprobe/dump/util/coding.h) and back, its texts owned by
// the decoded extract's data. Only our own processes read these: one that does not decode throws.
std::string EncodeExtract(const RankExtract& extract);
RankExtract DecodeExtract(std::string_view bytes);

}  // namespace msprobe::compare
