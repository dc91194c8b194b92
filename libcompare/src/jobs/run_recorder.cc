#include "jobs/run_recorder_internal.h"

#include <fmt/format.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "first_diff/compare_result_json_internal.h"
#include "jobs/run_report_internal.h"

namespace msprobe::compare::internal {

RunRecorder::RunRecorder(const CompareOptions& options, std::vector<std::string> skipped_inputs) : options_(options) {
  if (const std::optional<JunitSuite> suite = SkippedInputsSuite(options, skipped_inputs)) report_.junit.push_back(*suite);
  report_.skipped_inputs = std::move(skipped_inputs);
}

void RunRecorder::Record(size_t pair, PairOutcome outcome) {
  report_.pairs.push_back(std::move(outcome.result));
  if (outcome.junit) report_.junit.push_back(std::move(*outcome.junit));
  if (outcome.rank) {
    ranks_.push_back(std::move(*outcome.rank));
    rank_pairs_.push_back(pair);
    diff_rows_.push_back(std::move(outcome.diff_rows));
  }
  if (outcome.pending_xlsx) KeepXlsx(pair, std::move(*outcome.pending_xlsx));
  if (outcome.html_part) html_.AddPart(std::move(*outcome.html_part));
}

Result<std::vector<XlsxMark>> RunRecorder::AnalyzeFirstDiff() {
  report_.diff_analyzed = true;
  // msprobe reads the per-rank files in rank order.
  std::vector<size_t> order(ranks_.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return ranks_[a].rank < ranks_[b].rank; });
  std::vector<RankDiffs> sorted;
  std::vector<size_t> sorted_pairs, sorted_entries;
  for (size_t i : order) {
    sorted.push_back(std::move(ranks_[i]));
    sorted_pairs.push_back(rank_pairs_[i]);
    sorted_entries.push_back(i);
  }
  const FirstDiff diff = FindFirstDiff(sorted);
  std::vector<XlsxMark> marks;
  if (diff.stage == DiffStage::kNone) return marks;
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch());
  const std::string path =
      (std::filesystem::path(options_.output_dir) / fmt::format("diff_analyze_{}.json", ns.count())).string();
  MSP_RETURN_IF_ERROR(WriteDiffAnalyzeJson(path, sorted, diff));
  FirstDiffReport& report = report_.first_diff;
  report.stage = diff.stage;
  report.analyze_file = path;
  for (const DiffNodeRef& node : diff.nodes) {
    const DiffOp& op = sorted[node.rank_pos].ops[node.op];
    const size_t pair = sorted_pairs[node.rank_pos];
    const DiffRow& diff_row = diff_rows_[sorted_entries[node.rank_pos]].at(op.row);
    RowRef ref = diff_row.ref;
    ref.file = report_.pairs[pair].RowFile();
    // A pair's xlsx marks the first of its nodes.
    const bool marked = std::any_of(marks.begin(), marks.end(), [&](const XlsxMark& m) { return m.pair == pair; });
    if (!marked) marks.push_back(XlsxMark{pair, op.row, diff_row.ref.target_name, diff_row.stack});
    report.nodes.push_back(std::move(ref));
    report.ranks.push_back(sorted[node.rank_pos].rank);
  }
  return marks;
}

Result<std::vector<std::pair<size_t, std::vector<std::string>>>> RunRecorder::CommitXlsx(
    const std::vector<XlsxMark>& marks) {
  for (auto& [pair, xlsx] : pending_xlsx_) {
    for (const XlsxMark& mark : marks) {
      if (mark.pair == pair) xlsx.MarkFirstDiff(mark.row, mark.target_name, mark.stack);
    }
  }
  // One workbook per rank, each on its own thread: libxlsxwriter writes a workbook serially.
  std::vector<Result<std::vector<std::string>>> written(pending_xlsx_.size(), std::vector<std::string>{});
  tbb::parallel_for(size_t{0}, pending_xlsx_.size(),
                    [&](size_t i) { written[i] = std::move(pending_xlsx_[i].second).Commit(); });
  std::vector<std::pair<size_t, std::vector<std::string>>> files;
  for (size_t i = 0; i < pending_xlsx_.size(); ++i) {
    MSP_RETURN_IF_ERROR(written[i].status());
    files.emplace_back(pending_xlsx_[i].first, std::move(*written[i]));
  }
  pending_xlsx_.clear();
  return files;
}

void RunRecorder::AddOutputs(size_t pair, const std::vector<std::string>& files) {
  std::vector<std::string>& outputs = report_.pairs[pair].outputs;
  outputs.insert(outputs.end(), files.begin(), files.end());
}

Result<CompareReport> RunRecorder::Finish() && {
  if (options_.write_html) {
    Result<std::string> html =
        WriteRunHtml(options_.output_dir, options_.target_path + " vs " + options_.golden_path, report_, html_);
    if (!html.ok()) return std::move(*this).Fail(html.status());
    report_.html_file = std::move(*html);
  }
  MSP_RETURN_IF_ERROR(WriteRunReports(options_, &report_));
  return std::move(report_);
}

Status RunRecorder::Fail(const Status& failure) && {
  const bool wrote = std::any_of(report_.pairs.begin(), report_.pairs.end(),
                                 [](const PairResult& pair) { return !pair.outputs.empty(); });
  if (!wrote) return failure;
  return WriteRunReports(options_, &report_, failure);
}

}  // namespace msprobe::compare::internal
