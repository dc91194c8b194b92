#include "msprobe/compare/merge/merge_job.h"

#include <fmt/format.h>
#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>

#include "cluster/work_share_internal.h"
#include "msprobe/dump/util/cluster.h"
#include "msprobe/dump/util/coding.h"
#include "msprobe/compare/merge/merge_config.h"
#include "merge/merge_header_internal.h"
#include "merge/merge_inputs_internal.h"
#include "merge/rank_extract_internal.h"
#include "msprobe/compare/merge/merge_table.h"
#include "msprobe/compare/merge/merge_writer.h"
#include "output/output_timestamp_internal.h"
#include "msprobe/dump/framework/output_location.h"
#include "msprobe/dump/text/name_list.h"

namespace msprobe::compare {
namespace {

namespace fs = std::filesystem;

// Consumes extracts in rank order: warnings, the index list, the table.
class MergeAssembler {
 public:
  MergeAssembler(const MergeConfig& config, const msprobe::Warn& warn) : config_(config), warn_(warn) {}

  void Add(RankExtract&& extract) {
    const std::string& source = extract.input.path;
    for (const std::string& w : extract.warnings) Warn(source, w);
    for (std::string& api : extract.other_apis) {
      if (std::find(other_apis_.begin(), other_apis_.end(), api) == other_apis_.end()) other_apis_.push_back(std::move(api));
    }
    if (mode_indexes_.empty()) mode_indexes_ = std::move(extract.mode_indexes);
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
    std::vector<std::vector<MergeValue>> values;
    for (const std::string& index : table_->indexes()) {
      const size_t k = std::find(extract.indexes.begin(), extract.indexes.end(), index) - extract.indexes.begin();
      values.push_back(std::move(extract.values[k]));
    }
    table_->AddRank(extract.input.rank, extract.names, values);
  }

  const MergeTable* table() const { return table_.get(); }
  std::unique_ptr<MergeTable> Finish() && { return std::move(table_); }
  // Why nothing merged, when the config's `api` or `compare_index` fits none of `inputs` results.
  Status NothingMatched(const MergeTable* table, const std::string& config_path, size_t inputs) const;

 private:
  void Warn(const std::string& source, const std::string& message) const {
    if (warn_) warn_(source, message);
  }
  const MergeConfig& config_;
  const msprobe::Warn& warn_;
  std::unique_ptr<MergeTable> table_;
  std::vector<std::string> mode_indexes_;  // of the first result dropped for lacking a configured index
  std::vector<std::string> other_apis_;    // the first APIs seen in rows no `api` matched
};

constexpr size_t kNamesShown = 3;

// "[a, b]" as the config lists them.
std::string Bracketed(const std::vector<std::string>& items) { return fmt::format("[{}]", fmt::join(items, ", ")); }

Status MergeAssembler::NothingMatched(const MergeTable* table, const std::string& config_path, size_t inputs) const {
  if (!table && !mode_indexes_.empty()) {
    const bool tensor = mode_indexes_ == MergeableIndexes(MergeMode::kAll);
    return Status::InvalidInput(config_path,
                                fmt::format("compare_index {} fits none of the inputs: they are {} results (columns {})",
                                            Bracketed(config_.compare_index), tensor ? "tensor" : "statistics",
                                            ListNames(mode_indexes_, kNamesShown)));
  }
  if (table && table->row_count() == 0) {
    return Status::InvalidInput(config_path, fmt::format("api {} matches no row of the {} input(s) (their APIs include {})",
                                                         Bracketed(config_.apis), inputs,
                                                         ListNames(other_apis_, kNamesShown)));
  }
  return Status::Ok();
}

}  // namespace

std::string MergeOutputName() { return "multi_ranks_compare_merge_" + OutputTimestamp() + ".xlsx"; }

namespace {

// Reads inputs[order[k]] on all cores and hands each extract to `consume` in that order. Two results
// per worker in flight bound memory.
void ReadInOrder(const RankReader& reader, const std::vector<MergeInput>& inputs, const std::vector<size_t>& order,
                 const std::function<void(RankExtract&&)>& consume) {
  size_t next = 0;
  const size_t tokens = 2 * static_cast<size_t>(std::max(1, tbb::this_task_arena::max_concurrency()));
  tbb::parallel_pipeline(
      tokens,
      tbb::make_filter<void, size_t>(tbb::filter_mode::serial_in_order,
                                     [&](tbb::flow_control& fc) -> size_t {
                                       if (next == order.size()) fc.stop();
                                       return next < order.size() ? order[next++] : 0;
                                     }) &
          tbb::make_filter<size_t, std::shared_ptr<RankExtract>>(
              tbb::filter_mode::parallel,
              [&](size_t i) { return std::make_shared<RankExtract>(reader.Read(inputs[i])); }) &
          tbb::make_filter<std::shared_ptr<RankExtract>, void>(
              tbb::filter_mode::serial_in_order, [&](std::shared_ptr<RankExtract> extract) { consume(std::move(*extract)); }));
}

// Several processes: each reads the results of its share (balanced by bytes); process 0 gathers
// the extracts (only the configured APIs' rows) and adds them in rank order.
void ReadShared(Cluster& cluster, const RankReader& reader, const std::vector<MergeInput>& inputs,
                const std::function<void(RankExtract&&)>& consume) {
  std::vector<uint64_t> bytes(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::error_code ec;
    bytes[i] = fs::file_size(inputs[i].path, ec);
  }
  const std::vector<internal::PairShare> shares =
      internal::SharePairs(bytes, std::vector<bool>(inputs.size(), false), cluster.processes());
  std::vector<size_t> mine;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (shares[i].processes[0] == cluster.process()) mine.push_back(i);
  }
  std::vector<std::string> encoded;
  ReadInOrder(reader, inputs, mine, [&](RankExtract&& e) { encoded.push_back(EncodeExtract(e)); });
  std::map<std::pair<uint64_t, std::string>, RankExtract> by_input;  // inputs come sorted by rank
  for (const std::string& message : cluster.Gather(PackStrings(encoded))) {
    for (const std::string& bytes : UnpackStrings(message)) {
      RankExtract extract = DecodeExtract(bytes);
      std::pair<uint64_t, std::string> input(extract.input.rank, extract.input.path);
      by_input.emplace(std::move(input), std::move(extract));
    }
  }
  for (const MergeInput& input : inputs) {
    const auto found = by_input.find({input.rank, input.path});
    if (found != by_input.end()) consume(std::move(found->second));
  }
}

}  // namespace

Result<MergeReport> RunMerge(const MergeOptions& options, const JobContext& context) {
  const Warn warn = context.warn ? context.warn : [](const std::string&, const std::string&) {};
  Cluster* cluster = context.cluster;
  const bool several = cluster != nullptr && cluster->processes() > 1;
  // msprobe's order: create the output directory, find the results, then load the config.
  std::vector<MergeInput> inputs;
  MergeConfig config;
  Status setup = [&]() -> Status {
    MSP_RETURN_IF_ERROR(CheckOutputOutsideInputs(options.output_dir, /*is_dir=*/true, {options.input_dir}));
    std::error_code ec;
    fs::create_directories(options.output_dir, ec);
    if (ec || !fs::is_directory(options.output_dir)) {
      return Status::IOError(options.output_dir, "cannot create the output directory" + (ec ? ": " + ec.message() : ""));
    }
    // Process 0 alone tells of the inputs it skips: the others find the same.
    MSP_ASSIGN_OR_RETURN(inputs, DiscoverMergeInputs(options.input_dir, several && !cluster->root() ? Warn() : warn));
    MSP_ASSIGN_OR_RETURN(config, LoadMergeConfig(options.config_path));
    return Status::Ok();
  }();
  if (several) setup = AgreeOnFailure(*cluster, setup);
  MSP_RETURN_IF_ERROR(setup);

  RankReader reader(config);
  MergeAssembler assembler(config, warn);
  std::atomic<uint64_t> done{0};
  const auto add = [&](RankExtract&& extract) {
    assembler.Add(std::move(extract));
    if (context.progress) context.progress("results", ++done, inputs.size());
  };
  if (several) {
    ReadShared(*cluster, reader, inputs, add);
    if (!cluster->root()) return MergeReport();
  } else {
    std::vector<size_t> all(inputs.size());
    for (size_t i = 0; i < all.size(); ++i) all[i] = i;
    ReadInOrder(reader, inputs, all, add);
  }

  MSP_RETURN_IF_ERROR(assembler.NothingMatched(assembler.table(), options.config_path, inputs.size()));
  std::unique_ptr<MergeTable> table = std::move(assembler).Finish();
  if (!table) return Status::InvalidInput(options.input_dir, "Nothing to merge.");
  if (table->rank_count() == 1) warn(options.input_dir, "Only one compare result gets merge data.");

  MergeReport report;
  report.output_path = (fs::path(options.output_dir) / MergeOutputName()).string();
  std::error_code ec;
  if (fs::exists(report.output_path, ec)) warn(report.output_path, report.output_path + " will be deleted.");
  MSP_RETURN_IF_ERROR(WriteMergeWorkbook(report.output_path, *table, config.highlight_factor));
  for (size_t c = 0; c < table->rank_count(); ++c) report.ranks.push_back(table->rank(c));
  report.sheets = table->indexes();
  report.rows = table->row_count();
  return report;
}

}  // namespace msprobe::compare
