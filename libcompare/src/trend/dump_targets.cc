#include "trend/dump_targets_internal.h"

#include <fmt/format.h>

#include <functional>

#include "trend/trend_tags_internal.h"

namespace msprobe::compare::internal {

size_t DumpTargets::KeyHash::operator()(const std::pair<std::string_view, int64_t>& key) const {
  return std::hash<std::string_view>()(key.first) * 31 + std::hash<int64_t>()(key.second);
}

DumpTargets::DumpTargets(TrendDb* db, size_t waiting_rows_in_memory) : db_(db), waiting_limit_(waiting_rows_in_memory) {}

Status DumpTargets::AddRow(int64_t rank, int64_t step, std::string_view name, int64_t call, int metric,
                           const DumpStats& stats) {
  auto it = index_.find({name, call});
  if (it == index_.end()) {
    targets_.push_back(Target{std::string(name), call, 0, 0});
    it = index_.emplace(std::pair<std::string_view, int64_t>(targets_.back().name, call),
                        static_cast<uint32_t>(targets_.size() - 1)).first;
  }
  Target& target = targets_[it->second];
  const uint8_t bit = static_cast<uint8_t>(1u << (metric - 1));
  if ((target.metrics & bit) == 0) {
    const bool metric_new = by_metric_[metric - 1].empty();
    target.metrics |= bit;
    new_[metric - 1].push_back(it->second);
    by_metric_[metric - 1].push_back(it->second);
    if (metric_new) metric_order_.push_back(metric);
  }
  ++rows_since_flush_;
  if (target.id != 0) return db_->InsertRow(rank, step, target.id, metric, stats);
  return Wait(WaitingRow{rank, step, it->second, metric, stats});
}

Status DumpTargets::Wait(const WaitingRow& row) {
  waiting_.push_back(row);
  if (waiting_.size() <= waiting_limit_) return Status::Ok();
  if (!spill_) {
    MSP_RETURN_IF_ERROR(db_->sql().Exec(
        "CREATE TEMP TABLE waiting_rows (rank INTEGER, step INTEGER, target INTEGER, metric INTEGER, norm REAL, "
        "max REAL, min REAL, mean REAL)"));
    MSP_ASSIGN_OR_RETURN(spill_, db_->sql().Prepare("INSERT INTO temp.waiting_rows VALUES (?, ?, ?, ?, ?, ?, ?, ?)"));
    MSP_ASSIGN_OR_RETURN(unspill_, db_->sql().Prepare("SELECT * FROM temp.waiting_rows ORDER BY rowid"));
  }
  for (const WaitingRow& w : waiting_) {
    spill_->Bind(1, w.rank);
    spill_->Bind(2, w.step);
    spill_->Bind(3, static_cast<int64_t>(w.target));
    spill_->Bind(4, static_cast<int64_t>(w.metric));
    for (int k = 0; k < 4; ++k) spill_->Bind(5 + k, w.stats[static_cast<size_t>(k)]);
    MSP_RETURN_IF_ERROR(spill_->Run());
  }
  spilled_ += waiting_.size();
  waiting_.clear();
  return Status::Ok();
}

// The waiting rows, oldest first: those in the temporary table, then those in memory.
Status DumpTargets::WriteWaiting() {
  if (spilled_ > 0) {
    MSP_RETURN_IF_ERROR(unspill_->ForEachRow([&] {
      DumpStats stats;
      for (int k = 0; k < 4; ++k) {
        if (!unspill_->IsNull(4 + k)) stats[static_cast<size_t>(k)] = unspill_->Double(4 + k);
      }
      const Target& target = targets_[static_cast<size_t>(unspill_->Int64(2))];
      return db_->InsertRow(unspill_->Int64(0), unspill_->Int64(1), target.id, unspill_->Int64(3), stats);
    }));
    MSP_RETURN_IF_ERROR(db_->sql().Exec("DELETE FROM temp.waiting_rows"));
    spilled_ = 0;
  }
  for (const WaitingRow& w : waiting_) {
    MSP_RETURN_IF_ERROR(db_->InsertRow(w.rank, w.step, targets_[w.target].id, w.metric, w.stats));
  }
  waiting_.clear();
  return Status::Ok();
}

Status DumpTargets::Flush() {
  for (std::vector<uint32_t>& fresh : new_) {
    for (const uint32_t i : fresh) {
      Target& target = targets_[i];
      MSP_ASSIGN_OR_RETURN(const std::optional<int64_t> id, db_->InsertTarget(target.name, 0, target.call));
      if (id) {
        target.id = *id;
      } else if (target.id == 0) {
        return Status::Internal(db_->path(), fmt::format("target {} has a row but no id", target.name));
      }
    }
    fresh.clear();
  }
  rows_since_flush_ = 0;
  return WriteWaiting();
}

Status DumpTargets::WriteTags() {
  // The rows are all written: the temporary table's statements go, so that the database can close.
  spill_.reset();
  unspill_.reset();
  struct TagHash {
    size_t operator()(const TrendTag& tag) const {
      return std::hash<std::string_view>()(tag.name) ^ std::hash<std::string_view>()(tag.category);
    }
  };
  for (const int metric : metric_order_) {
    std::unordered_map<TrendTag, int64_t, TagHash> ids;
    for (const uint32_t i : by_metric_[static_cast<size_t>(metric - 1)]) {
      for (TrendTag& tag : DumpTargetTags(targets_[i].name)) {
        auto it = ids.find(tag);
        if (it == ids.end()) {
          MSP_ASSIGN_OR_RETURN(const int64_t id, db_->InsertTag(tag.name, tag.category, metric));
          it = ids.emplace(std::move(tag), id).first;
        }
        MSP_RETURN_IF_ERROR(db_->InsertMapping(it->second, targets_[i].id));
      }
    }
  }
  return Status::Ok();
}

}  // namespace msprobe::compare::internal
