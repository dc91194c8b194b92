// The targets of a dump import and their ids (docs/trend.md §6). msprobe gives ids in batches: it
// remembers, per metric, the targets it has not seen before, and at a flush point (after an entry
// that brings the rows since the last flush to a multiple of 5000, and at the end of every
// dump.json) inserts them metric by metric (forward, backward, recompute, parameters_grad) with
// INSERT OR IGNORE, a target seen before under another metric spending an id without taking it.
// Ours are the same ids. A row whose target has its id is written at once; the others wait for the
// flush that gives it, in memory up to a bound and beyond it in a temporary table, so memory does not
// grow with a dump that seldom meets a flush point.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "msprobe/dump/util/status.h"
#include "trend/trend_db_internal.h"

namespace msprobe::compare::internal {

using DumpStats = std::array<std::optional<double>, 4>;  // norm, max, min, mean

class DumpTargets {
 public:
  static constexpr uint64_t kFlushRows = 5000;  // msprobe's BATCH_SIZE
  // `waiting_rows_in_memory`: rows kept in memory for targets without an id before they go to the
  // temporary table (a parameter for the tests).
  explicit DumpTargets(TrendDb* db, size_t waiting_rows_in_memory = 1 << 16);

  // A row of `metric` (1-4) for the target (name, call).
  Status AddRow(int64_t rank, int64_t step, std::string_view name, int64_t call, int metric, const DumpStats& stats);
  // Rows added since the last flush: msprobe flushes after an entry that leaves it a multiple of 5000.
  uint64_t rows_since_flush() const { return rows_since_flush_; }
  Status Flush();
  // After the last flush, the last call: each metric's tags (in the order metrics were first met) and
  // the mapping of its targets to them.
  Status WriteTags();

 private:
  struct Target {
    std::string name;
    int64_t call = 0;
    int64_t id = 0;          // 0 until its first flush
    uint8_t metrics = 0;     // bit m - 1: met under metric m
  };
  struct WaitingRow {
    int64_t rank, step;
    uint32_t target;
    int metric;
    DumpStats stats;
  };
  struct KeyHash {
    size_t operator()(const std::pair<std::string_view, int64_t>& key) const;
  };
  Status Wait(const WaitingRow& row);
  Status WriteWaiting();

  TrendDb* db_;
  size_t waiting_limit_;
  std::deque<Target> targets_;  // a deque: index_ holds views of the names
  std::unordered_map<std::pair<std::string_view, int64_t>, uint32_t, KeyHash> index_;  // views into targets_' names
  std::array<std::vector<uint32_t>, 4> new_;     // per metric, the targets met since the last flush
  std::array<std::vector<uint32_t>, 4> by_metric_;  // per metric, every target in the order met
  std::vector<int> metric_order_;                 // metrics in the order first met
  std::vector<WaitingRow> waiting_;
  uint64_t spilled_ = 0;                          // rows in the temporary table
  std::optional<SqliteStatement> spill_, unspill_;
  uint64_t rows_since_flush_ = 0;
};

}  // namespace msprobe::compare::internal
