#include "merge/rank_extract_internal.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "merge/merge_header_internal.h"
#include "msprobe/dump/text/python_format.h"

namespace msprobe::compare {
namespace {

constexpr const char* kNotShown = "The compare result will not be shown in merged result.";

constexpr size_t kApisShown = 3;

// "Functional.linear" of "Functional.linear.0.forward.input.0": the name up to its second dot.
std::string_view ApiOf(std::string_view name) {
  const size_t first = name.find('.');
  return first == std::string_view::npos ? name : name.substr(0, name.find('.', first + 1));
}

bool IsReplaced(std::string_view text) { return text == "N/A" || text == "unsupported" || text == "Nan"; }

// Python's str() of a kept cell.
std::string ToPython(const CompareResultColumns& table, const PackedCell& cell) {
  switch (cell.kind) {
    case Cell::Kind::kText: return std::string(table.TextOf(cell));
    case Cell::Kind::kFloat: return PythonFloatRepr(std::bit_cast<double>(cell.payload));
    case Cell::Kind::kInt: return std::to_string(static_cast<int64_t>(cell.payload));
    case Cell::Kind::kBool: return std::string(PythonBoolStr(cell.payload != 0));
  }
  return {};
}

MergeValue ViewOf(const CompareResultColumns& table, const PackedCell& cell) {
  MergeValue v;
  switch (cell.kind) {
    case Cell::Kind::kText:
      v.kind = MergeValue::Kind::kText;
      v.text = table.TextOf(cell);
      break;
    case Cell::Kind::kFloat:
      v.kind = MergeValue::Kind::kFloat;
      v.number = std::bit_cast<double>(cell.payload);
      break;
    case Cell::Kind::kInt:
      v.kind = MergeValue::Kind::kInt;
      v.integer = static_cast<int64_t>(cell.payload);
      break;
    case Cell::Kind::kBool:
      v.kind = MergeValue::Kind::kBool;
      v.integer = cell.payload != 0 ? 1 : 0;
      break;
  }
  return v;
}

}  // namespace

std::vector<std::string> MissingFrom(const std::vector<std::string>& wanted, const std::vector<std::string>& have) {
  std::vector<std::string> missing;
  for (const std::string& w : wanted) {
    if (std::find(have.begin(), have.end(), w) == have.end()) missing.push_back(w);
  }
  return missing;
}

std::vector<std::string> InconsistentWarnings(uint64_t rank, const std::vector<std::string>& missing) {
  return {fmt::format("Compare indexes in rank{} compare result are not consistent with those in other compare "
                      "results, please check!", rank),
          kNotShown, "The invalid compare indexes: " + PythonSetOfStrings(missing)};
}

RankReader::RankReader(const MergeConfig& config) : config_(config) {
  for (const std::string& api : config.apis) patterns_.push_back(api + ".");
}

RankExtract RankReader::Read(const MergeInput& input) const {
  RankExtract out;
  out.input = input;
  const uint64_t rank = input.rank;
  bool dropped = false;  // select() refused the header; its warnings are in out.warnings
  CompareResultQuery query;
  query.select = [&](const std::vector<std::string>& header) -> Result<std::vector<size_t>> {
    const MergeMode mode = DetectMergeMode(header);
    if (mode == MergeMode::kUnknown || mode == MergeMode::kMd5) {
      out.warnings.push_back(
          mode == MergeMode::kMd5
              ? fmt::format("Rank{} compare result is 'md5' dump task and does not support merging result, please "
                            "check! {}", rank, kNotShown)
              : fmt::format("A valid dump task can not be identified from rank{} compare result, please check! {}",
                            rank, kNotShown));
      dropped = true;
      return Status::InvalidInput(input.path, "dropped");
    }
    const std::vector<std::string>& mergeable = MergeableIndexes(mode);
    out.indexes = config_.compare_index.empty() ? mergeable : config_.compare_index;
    if (const auto missing = MissingFrom(out.indexes, mergeable); !missing.empty()) {
      const auto lines = InconsistentWarnings(rank, missing);
      out.warnings.insert(out.warnings.end(), lines.begin(), lines.end());
      out.mode_indexes = mergeable;
      dropped = true;
      return Status::InvalidInput(input.path, "dropped");
    }
    std::vector<size_t> columns;
    auto position = [&](const std::string& name) {
      return static_cast<size_t>(std::find(header.begin(), header.end(), name) - header.begin());
    };
    columns.push_back(position(kTargetNameColumn));
    for (const std::string& index : out.indexes) columns.push_back(position(index));
    columns.push_back(position(kTargetMaxColumn));
    columns.push_back(position(kGoldenMaxColumn));
    return columns;
  };
  std::vector<uint32_t> first_api;  // per kept row, the first api it matches
  query.keep = [&](std::string_view name) {
    const size_t a = FirstMatch(name, 0);
    if (a == patterns_.size()) {
      const std::string_view api = ApiOf(name);
      std::vector<std::string>& seen = out.other_apis;
      if (seen.size() <= kApisShown && std::find(seen.begin(), seen.end(), api) == seen.end()) seen.emplace_back(api);
      return false;
    }
    first_api.push_back(static_cast<uint32_t>(a));
    return true;
  };

  Result<CompareResultColumns> result = ReadCompareResult(input.path, query);
  if (!result.ok()) {
    if (!dropped) out.warnings.push_back(fmt::format("cannot be read ({}). {}", result.status().message(), kNotShown));
    return out;
  }
  if (result->data_rows == 0) {
    out.warnings.push_back(fmt::format("Rank{} compare result is empty and will not shown in merged result.", rank));
    return out;
  }
  out.data = std::make_unique<RankData>();
  out.data->table = std::move(*result);
  Extract(first_api, &out);
  out.usable = true;
  return out;
}

// The first api at or after `a` whose pattern `name` holds, or patterns_.size().
size_t RankReader::FirstMatch(std::string_view name, size_t a) const {
  while (a < patterns_.size() && name.find(patterns_[a]) == std::string_view::npos) ++a;
  return a;
}

// docs/formats.md §5.5 steps 2–5 over the kept rows: [name, indexes…, NPU max, Bench max]. Rows come
// grouped by api in config order, each group in sheet order; a row matching two apis comes twice
// and a name on two rows comes twice: MergeTable keeps the first of each name, as msprobe's
// "first row per name" lookup does.
// `first_api[r]`: the first api kept row r matches (the reader's keep() found it).
void RankReader::Extract(const std::vector<uint32_t>& first_api, RankExtract* out) const {
  const CompareResultColumns& table = out->data->table;
  const size_t rows = table.row_count();
  std::vector<std::vector<uint32_t>> groups(patterns_.size());
  for (size_t r = 0; r < rows; ++r) {
    const std::string_view name = table.TextOf(table.at(r, 0));
    for (size_t a = first_api[r]; a < patterns_.size(); a = FirstMatch(name, a + 1)) {
      groups[a].push_back(static_cast<uint32_t>(r));
    }
  }
  size_t picked = 0;
  for (size_t a = 0; a < patterns_.size(); ++a) {
    picked += groups[a].size();
    if (groups[a].empty()) {
      out->warnings.push_back(fmt::format("{} not found in rank{} compare result.", config_.apis[a], out->input.rank));
    }
  }
  const size_t n = out->indexes.size();
  out->names.reserve(picked);
  out->values.assign(n, {});
  for (auto& column : out->values) column.reserve(picked);
  for (const std::vector<uint32_t>& group : groups) {
    for (const uint32_t r : group) {
      out->names.push_back(table.TextOf(table.at(r, 0)));
      for (size_t k = 0; k < n; ++k) {
        const PackedCell& value = table.at(r, k + 1);
        if (value.kind == Cell::Kind::kText && IsReplaced(table.TextOf(value))) {
          const std::string& text = out->data->replaced.emplace_back(
              "NPU:" + ToPython(table, table.at(r, n + 1)) + "  Bench:" + ToPython(table, table.at(r, n + 2)));
          MergeValue v;
          v.kind = MergeValue::Kind::kText;
          v.text = text;
          out->values[k].push_back(v);
        } else {
          out->values[k].push_back(ViewOf(table, value));
        }
      }
    }
  }
}

}  // namespace msprobe::compare
