#include "msprobe/compare/recompute/attribution.h"

#include <tbb/parallel_invoke.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "msprobe/dump/framework/dump_layout.h"
#include "msprobe/dump/files/content_hash.h"
#include "msprobe/ops/check/dump_check.h"

namespace msprobe::compare {
namespace {

using Checks = std::unordered_map<std::string_view, const ops::SelfCheck*>;

Checks Index(const ops::DumpCheck& dump) {
  Checks checks;
  for (const ops::CallCheck& c : dump.calls) checks.emplace(c.key, &c.check);
  return checks;
}

// The API entry a row belongs to: its name up to ".forward" / ".backward" ("" for "N/A").
std::string_view ApiOfRow(std::string_view name) {
  for (std::string_view direction : {".forward", ".backward"}) {
    const size_t at = name.find(direction);
    if (at != std::string_view::npos) return name.substr(0, at + direction.size());
  }
  return {};
}

const ops::SelfCheck* Find(const Checks& checks, std::string_view api) {
  const auto it = checks.find(api);
  return it == checks.end() ? nullptr : it->second;
}

// The check when its self error was measured, else nullptr: no reference, or a tensor not read.
const ops::SelfCheck* Measured(const ops::SelfCheck* check) { return check && check->Measured() ? check : nullptr; }
bool Unread(const ops::SelfCheck* check) { return check && check->verdict == ops::SelfVerdict::kUnreadable; }

Cell ExcessCell(const ops::SelfCheck* check) { return check ? Cell::Float(check->Excess()) : Cell::NA(); }

// An input differs unless compare measured it equal: a tensor's MaxAbsErr of exactly 0 (msprobe rounds
// it to 12 decimals, so differences below 5e-13 count as equal); a value without a tensor file (a
// scalar, a list item) by its recorded value, which msprobe keeps in the statistics.
bool Differs(const ResultRow& row) {
  if (!row.matched) return true;
  if (row.target_data_name == "-1") return row.target_stats != row.golden_stats;
  if (row.metrics.size() <= kMaxAbsErr) return true;
  const Cell& cell = row.metrics[kMaxAbsErr];
  return !cell.is_number() || cell.number() != 0;
}

// A dump.json named on both sides (a dump against itself) has one set of self errors.
bool SameFile(const std::string& a, const std::string& b) {
  std::error_code error;
  return std::filesystem::equivalent(a, b, error);
}

struct ApiRows {
  size_t begin, end;
};

// The dtype and shape of an earlier API's output that could not be hashed (its file unread).
using UnreadOutputs = std::set<std::pair<std::string, std::string>>;

// Origin of rows [begin, end) of one API; `produced` holds the hashes of earlier APIs' outputs,
// `unread_outputs` what is known of those that could not be read.
ApiAttribution Classify(const ResultTable& table, ApiRows api, const std::vector<std::optional<uint64_t>>& hashes,
                        const std::unordered_set<uint64_t>& produced, const UnreadOutputs& unread_outputs,
                        const ops::SelfCheck* target_check, const ops::SelfCheck* golden_check,
                        std::optional<std::string>* argument) {
  const ops::SelfCheck *target = Measured(target_check), *golden = Measured(golden_check);
  ApiAttribution a{"", ExcessCell(target), ExcessCell(golden)};
  // A tensor of the call that could not be read on either side, by the recompute or by the compare,
  // names no cause: not the op (its own error or the golden's is unknown), nor an input (its difference
  // may be only that it was not read).
  const bool unread_row = std::any_of(table.rows.begin() + static_cast<std::ptrdiff_t>(api.begin),
                                      table.rows.begin() + static_cast<std::ptrdiff_t>(api.end),
                                      [](const ResultRow& r) { return r.unreadable; });
  if (unread_row || Unread(target_check) || Unread(golden_check)) {
    a.origin = "unknown";
    return a;
  }
  if (target != nullptr && target->Excess() > 1 &&
      target->Excess() > kOwnErrorMargin * (golden != nullptr ? golden->Excess() : 0)) {
    a.origin = "op";
    return a;
  }
  bool differs = false;
  for (size_t i = api.begin; i < api.end; ++i) {
    const ResultRow& r = table.rows[i];
    if (r.state != RowState::kInput || !Differs(r)) continue;
    differs = true;
    if (!hashes[i] || !produced.contains(*hashes[i])) {
      // An earlier output of its dtype and shape was not read: this input may be that output, so
      // where its difference comes from is unknown.
      if (unread_outputs.contains({r.target_dtype, r.target_shape})) {
        a.origin = "unknown";
        return a;
      }
      a.origin = "input";
      *argument = r.target_name;
      return a;
    }
  }
  a.origin = differs ? "inherited" : target != nullptr ? "clean" : "unknown";
  return a;
}

}  // namespace

bool NeedsTargetHash(const ResultRow& row) {
  return row.target_data_name != "-1" && (row.state == RowState::kInput || row.state == RowState::kOutput);
}

std::optional<uint64_t> HashTargetFile(const std::string& target_tensor_dir, const ResultRow& row) {
  const Result<std::string> path = ResolveDataName(target_tensor_dir, row.target_data_name);
  if (!path.ok()) return std::nullopt;
  const Result<uint64_t> hash = TensorContentHash(*path);
  return hash.ok() ? std::optional<uint64_t>(*hash) : std::nullopt;
}

Result<std::optional<FirstCause>> AttributeRows(const std::string& target_json, const std::string& golden_json,
                                                const std::vector<std::optional<uint64_t>>& hashes,
                                                ResultTable* table) {
  const bool same = SameFile(target_json, golden_json);
  Result<ops::DumpCheck> target_check = Status::Internal("", "not run"), golden_check = Status::Internal("", "not run");
  tbb::parallel_invoke([&] { target_check = ops::CheckDumpCalls(target_json); },
                       [&] {
                         if (!same) golden_check = ops::CheckDumpCalls(golden_json);
                       });
  MSP_RETURN_IF_ERROR(target_check.status());
  if (!same) MSP_RETURN_IF_ERROR(golden_check.status());
  const Checks target = Index(*target_check), golden = same ? target : Index(*golden_check);

  std::optional<FirstCause> first;
  std::unordered_set<uint64_t> produced;
  UnreadOutputs unread_outputs;
  std::vector<ResultRow>& rows = table->rows;
  for (size_t begin = 0; begin < rows.size();) {
    size_t end = begin + 1;
    while (end < rows.size() && rows[end].api == rows[begin].api) ++end;
    std::optional<std::string> argument;
    const ApiAttribution a = Classify(*table, {begin, end}, hashes, produced, unread_outputs,
                                      Find(target, rows[begin].api), Find(golden, ApiOfRow(rows[begin].golden_name)),
                                      &argument);
    if (!first && (a.origin == "op" || a.origin == "input")) {
      first = FirstCause{rows[begin].api, a.origin, argument, begin};
      table->first_cause_row = begin;
    }
    const auto index = static_cast<int32_t>(table->attributions.size());
    table->attributions.push_back(a);
    for (size_t i = begin; i < end; ++i) {
      rows[i].attribution = index;
      if (rows[i].state != RowState::kOutput) continue;
      if (hashes[i]) {
        produced.insert(*hashes[i]);
      } else if (NeedsTargetHash(rows[i])) {
        unread_outputs.emplace(rows[i].target_dtype, rows[i].target_shape);
      }
    }
    begin = end;
  }
  return first;
}

void AttributeUnknown(ResultTable* table) {
  table->attributions.assign(1, ApiAttribution{"unknown", Cell::NA(), Cell::NA()});
  for (ResultRow& row : table->rows) row.attribution = 0;
}

}  // namespace msprobe::compare
