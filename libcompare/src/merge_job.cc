#include "msprobe/compare/merge_job.h"

#include <fmt/format.h>
#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <ctime>
#include <filesystem>
#include <memory>
#include <optional>
#include <unordered_set>

#include "msprobe/compare/compare_result_reader.h"
#include "msprobe/compare/merge_config.h"
#include "msprobe/compare/merge_header.h"
#include "msprobe/compare/merge_table.h"
#include "msprobe/compare/merge_writer.h"
#include "msprobe/compare/output_timestamp.h"

namespace msprobe::compare {
namespace {

namespace fs = std::filesystem;

constexpr const char* kNotShown = "The compare result will not be shown in merged result.";

// What one result contributes, made in parallel and consumed in rank order.
struct RankExtract {
  MergeInput input;
  std::vector<std::string> warnings;       // in the order msprobe logs them
  bool usable = false;                     // false: dropped or empty
  std::vector<std::string> indexes;        // what was read: the config's list, or the mode's full list
  std::vector<std::string> names;          // full names in first-seen order, no repeats
  std::vector<std::vector<Cell>> values;   // per index, aligned with names
};

bool IsReplaced(const Cell& cell) {
  return cell.IsText("N/A") || cell.IsText("unsupported") || cell.IsText("Nan");
}

// Python's repr of a set of strings, in the given order: {'Cosine', 'EucDist'}.
std::string PythonSet(const std::vector<std::string>& items) {
  std::string out = "{";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ", '" : "'") + items[i] + "'";
  return out + "}";
}

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
          kNotShown, "The invalid compare indexes: " + PythonSet(missing)};
}

class RankReader {
 public:
  explicit RankReader(const MergeConfig& config) : config_(config) {
    for (const std::string& api : config.apis) patterns_.push_back(api + ".");
  }

  RankExtract Read(const MergeInput& input) const {
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
        dropped = true;
        return Status::InvalidInput(input.path, "dropped");
      }
      std::vector<size_t> columns;
      auto position = [&](const std::string& name) {
        return static_cast<size_t>(std::find(header.begin(), header.end(), name) - header.begin());
      };
      columns.push_back(position(kNpuNameColumn));
      for (const std::string& index : out.indexes) columns.push_back(position(index));
      columns.push_back(position(kNpuMaxColumn));
      columns.push_back(position(kBenchMaxColumn));
      return columns;
    };
    query.keep = [&](std::string_view name) { return MatchesAny(name); };

    Result<CompareResultColumns> result = ReadCompareResult(input.path, query);
    if (!result.ok()) {
      if (!dropped) out.warnings.push_back(fmt::format("cannot be read ({}). {}", result.status().message(), kNotShown));
      return out;
    }
    if (result->data_rows == 0) {
      out.warnings.push_back(fmt::format("Rank{} compare result is empty and will not shown in merged result.", rank));
      return out;
    }
    Extract(std::move(*result), &out);
    out.usable = true;
    return out;
  }

 private:
  bool MatchesAny(std::string_view name) const {
    return std::any_of(patterns_.begin(), patterns_.end(),
                       [&](const std::string& p) { return name.find(p) != std::string_view::npos; });
  }

  // formats.md §5.5 steps 2–5 over the kept rows: [name, indexes…, NPU max, Bench max].
  // Takes the cells out of `table`: each row is picked at most once.
  void Extract(CompareResultColumns&& table, RankExtract* out) const {
    std::unordered_set<std::string_view> seen;
    seen.reserve(table.rows.size());
    std::vector<std::vector<Cell>*> rows;
    for (size_t a = 0; a < patterns_.size(); ++a) {
      bool found = false;
      for (std::vector<Cell>& row : table.rows) {
        const std::string& name = row[0].text();
        if (name.find(patterns_[a]) == std::string::npos) continue;
        found = true;
        if (seen.insert(name).second) rows.push_back(&row);  // the first row of each name
      }
      if (!found) out->warnings.push_back(fmt::format("{} not found in rank{} compare result.", config_.apis[a],
                                                      out->input.rank));
    }
    const size_t n = out->indexes.size();
    out->names.reserve(rows.size());
    out->values.assign(n, {});
    for (auto& column : out->values) column.reserve(rows.size());
    for (std::vector<Cell>* row : rows) {
      const Cell& npu_max = (*row)[n + 1];
      const Cell& bench_max = (*row)[n + 2];
      for (size_t k = 0; k < n; ++k) {
        Cell& value = (*row)[k + 1];
        out->values[k].push_back(IsReplaced(value)
                                     ? Cell::Text("NPU:" + npu_max.ToPython() + "  Bench:" + bench_max.ToPython())
                                     : std::move(value));
      }
    }
    // Last: `seen` views the names.
    for (std::vector<Cell>* row : rows) out->names.push_back((*row)[0].text());
  }

  const MergeConfig& config_;
  std::vector<std::string> patterns_;
};

// Consumes extracts in rank order: warnings, the index list, the table.
class MergeAssembler {
 public:
  MergeAssembler(const MergeConfig& config, const MergeWarn& warn) : config_(config), warn_(warn) {}

  void Add(RankExtract&& extract) {
    const std::string& source = extract.input.path;
    for (const std::string& w : extract.warnings) Warn(source, w);
    if (!extract.usable) return;
    if (!table_) {
      table_ = std::make_unique<MergeTable>(extract.indexes);  // the lowest usable rank fixes the list
    } else if (config_.compare_index.empty()) {
      if (const auto missing = MissingFrom(table_->indexes(), extract.indexes); !missing.empty()) {
        for (const std::string& w : InconsistentWarnings(extract.input.rank, missing)) Warn(source, w);
        return;
      }
    }
    // Values in the table's index order.
    std::vector<std::vector<Cell>> values;
    for (const std::string& index : table_->indexes()) {
      const size_t k = std::find(extract.indexes.begin(), extract.indexes.end(), index) - extract.indexes.begin();
      values.push_back(std::move(extract.values[k]));
    }
    table_->AddRank(extract.input.rank, extract.names, values);
  }

  std::unique_ptr<MergeTable> Finish() && { return std::move(table_); }

 private:
  void Warn(const std::string& source, const std::string& message) const {
    if (warn_) warn_(source, message);
  }
  const MergeConfig& config_;
  const MergeWarn& warn_;
  std::unique_ptr<MergeTable> table_;
};

}  // namespace

std::string MergeOutputName() { return "multi_ranks_compare_merge_" + OutputTimestamp() + ".xlsx"; }

Result<MergeReport> RunMerge(const MergeOptions& options) {
  const MergeWarn warn = options.warn ? options.warn : [](const std::string&, const std::string&) {};
  // msprobe's order: create the output directory, find the results, then load the config.
  std::error_code ec;
  fs::create_directories(options.output_dir, ec);
  if (ec || !fs::is_directory(options.output_dir)) {
    return Status::IOError(options.output_dir, "cannot create the output directory" + (ec ? ": " + ec.message() : ""));
  }
  MSP_ASSIGN_OR_RETURN(std::vector<MergeInput> inputs, DiscoverMergeInputs(options.input_dir, warn));
  MSP_ASSIGN_OR_RETURN(MergeConfig config, LoadMergeConfig(options.config_path));

  RankReader reader(config);
  MergeAssembler assembler(config, warn);
  std::atomic<uint64_t> done{0};
  size_t next = 0;
  // Two results per worker in flight bounds memory; order is restored before assembling.
  const size_t tokens = 2 * static_cast<size_t>(std::max(1, tbb::this_task_arena::max_concurrency()));
  tbb::parallel_pipeline(
      tokens,
      tbb::make_filter<void, size_t>(tbb::filter_mode::serial_in_order,
                                     [&](tbb::flow_control& fc) -> size_t {
                                       if (next == inputs.size()) fc.stop();
                                       return next++;
                                     }) &
          tbb::make_filter<size_t, std::shared_ptr<RankExtract>>(
              tbb::filter_mode::parallel,
              [&](size_t i) { return std::make_shared<RankExtract>(reader.Read(inputs[i])); }) &
          tbb::make_filter<std::shared_ptr<RankExtract>, void>(tbb::filter_mode::serial_in_order,
                                                               [&](std::shared_ptr<RankExtract> extract) {
                                                                 assembler.Add(std::move(*extract));
                                                                 if (options.progress) {
                                                                   options.progress(++done, inputs.size());
                                                                 }
                                                               }));

  std::unique_ptr<MergeTable> table = std::move(assembler).Finish();
  if (!table) return Status::InvalidInput(options.input_dir, "Nothing to merge.");
  if (table->rank_count() == 1) warn(options.input_dir, "Only one compare result gets merge data.");

  MergeReport report;
  report.output_path = (fs::path(options.output_dir) / MergeOutputName()).string();
  if (fs::exists(report.output_path, ec)) warn(report.output_path, report.output_path + " will be deleted.");
  MSP_RETURN_IF_ERROR(WriteMergeWorkbook(report.output_path, *table, config.highlight_factor));
  for (size_t c = 0; c < table->rank_count(); ++c) report.ranks.push_back(table->rank(c));
  report.sheets = table->indexes();
  report.rows = table->row_count();
  return report;
}

}  // namespace msprobe::compare
