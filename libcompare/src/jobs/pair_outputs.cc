#include "jobs/pair_outputs_internal.h"

#include <fmt/format.h>
#include <tbb/parallel_invoke.h>

#include <filesystem>
#include <system_error>
#include <tuple>
#include <utility>

#include "msprobe/compare/first_diff/api_diff_check.h"
#include "msprobe/dump/util/coding.h"
#include "report/run_html_internal.h"

namespace msprobe::compare::internal {

namespace fs = std::filesystem;

PairOutputs::PairOutputs(const CompareOptions& options, const ComparePairSpec& spec, std::mutex& directories_mutex,
                         std::string stem, std::string da_json, std::string label)
    : options_(options),
      spec_(spec),
      directories_mutex_(directories_mutex),
      stem_(std::move(stem)),
      da_json_(std::move(da_json)),
      label_(std::move(label)),
      summary_(options) {
  rank_.rank = spec.rank;
}

Status PairOutputs::Open(const ResultTable& shape) {
  opened_ = true;
  std::error_code ec;
  {
    // Pairs in flight may share a directory, and libstdc++'s create_directories has crashed when
    // racing itself (seen under ASan).
    const std::lock_guard<std::mutex> lock(directories_mutex_);
    fs::create_directories(spec_.output_dir, ec);
  }
  if (ec) return Status::IOError(spec_.output_dir, "cannot create the output directory: " + ec.message());
  const std::vector<std::string> header = shape.Header();
  if (options_.diff_analyze) {
    MSP_ASSIGN_OR_RETURN(auto opened, CompareResultJsonStream::Open(da_json_));
    da_.emplace(std::move(opened));
  }
  if (options_.write_csv) {
    MSP_ASSIGN_OR_RETURN(auto opened, CsvResultStream::Open(stem_ + ".csv", header));
    csv_.emplace(std::move(opened));
  }
  if (options_.write_xlsx) {
    // Without -da the rows are final as they come: the workbook is written beside the compare.
    const XlsxSheetWriting writing = options_.diff_analyze ? XlsxSheetWriting::kAtCommit : XlsxSheetWriting::kAsRowsCome;
    MSP_ASSIGN_OR_RETURN(auto opened, XlsxResultStream::Open(stem_ + ".xlsx", shape, kMaxExcelRows, writing));
    xlsx_.emplace(std::move(opened));
  }
  if (options_.write_json) {
    MSP_ASSIGN_OR_RETURN(auto opened, JsonResultStream::Open(stem_ + ".json", shape.mode, header));
    json_.emplace(std::move(opened));
  }
  if (options_.write_html) html_.emplace(CompareReportPart(label_, spec_.target_json, shape.mode, shape.with_match));
  return Status::Ok();
}

std::vector<ApiCheck> PairOutputs::CollectDiffs(const ResultTable& table, const std::vector<P2pColumns>& p2p,
                                                size_t offset) {
  std::vector<ApiCheck> checks = CheckApis(table);
  // msprobe checks the whole table at once: an API batch must not run on from an earlier table, nor
  // an API come back after it (a dict keeps its first place). Whether a pair streams must not hang on
  // where its tables end (a process's batches, a distributed run's slices), so the test is on the
  // entries: a batch that runs over two entries, an API that starts two batches, or a key repeated
  // across a table's edge. Never seen in a dump, whose APIs are unique keys; the caller compares such
  // a pair in memory instead.
  if (table.rows.empty()) return checks;
  if (table.rows.front().api == last_row_api_) split_api_ = true;
  for (const ResultRow& row : table.rows) {
    if (row.api == last_row_api_) continue;  // the same entry
    last_row_api_ = row.api;
    if (!batch_api_.empty() && JoinsBatch(batch_api_, row.api)) {
      split_api_ = true;
    } else {
      batch_api_ = row.api;
      split_api_ = !apis_.insert(row.api).second || split_api_;
    }
  }
  RankDiffs part = CollectRankDiffs(spec_.rank, table, checks, p2p);
  for (DiffOp& op : part.ops) {
    if (op.is_diff) {
      DiffRow row{MakeRowRef(table, op.row, ""), xlsx_ ? FirstDiffStack(table, op.row) : std::string()};
      row.ref.row += offset;
      diff_rows_.emplace(offset + op.row, std::move(row));
    }
    op.row += offset;
    rank_.ops.push_back(std::move(op));
  }
  return checks;
}

Status PairOutputs::Append(const ResultTable& table, const std::vector<P2pColumns>& p2p) {
  if (!opened_) MSP_RETURN_IF_ERROR(Open(table));
  const size_t offset = rows_;
  rows_ += table.rows.size();
  stat_columns_.Add(table);
  std::vector<ApiCheck> checks;
  if (options_.diff_analyze) checks = CollectDiffs(table, p2p, offset);
  // The writers only read the table: side by side.
  Status csv, json, xlsx, da;
  tbb::parallel_invoke([&] { if (csv_) csv = csv_->Append(table); },
                       [&] { if (json_) json = json_->Append(table); },
                       [&] { if (xlsx_) xlsx = xlsx_->Append(table); },
                       [&] { if (da_) da = da_->Append(table, p2p, checks); },
                       [&] { if (html_) for (const ResultRow& row : table.rows) html_->AddRow(row); },
                       [&] { summary_.Add(table); });
  for (const Status* status : {&da, &csv, &xlsx, &json}) MSP_RETURN_IF_ERROR(*status);
  return Status::Ok();
}

bool RowsRenderApart(const CompareOptions& options) {
  return !options.diff_analyze && !options.write_html && !options.write_xlsx;
}

void PairOutputsPart::Add(const ResultTable& table) {
  if (rows_ == 0) {
    mode_ = table.mode;
    with_stack_ = table.with_stack;
  }
  rows_ += table.rows.size();
  stat_columns_.Add(table);
  tbb::parallel_invoke([&] { if (options_.write_csv) CsvResultStream::Render(table, &csv_); },
                       [&] { if (options_.write_json) JsonResultStream::Render(table, &json_); },
                       [&] { summary_.Add(table); });
}

Status PairOutputs::Append(const PairOutputsPart& part) {
  if (part.rows_ == 0) return Status::Ok();
  if (!RowsRenderApart(options_)) {
    return Status::Internal(spec_.target_json, "rows rendered apart for -da, --html or a workbook");
  }
  if (!opened_) {
    ResultTable shape;
    shape.mode = part.mode_;
    shape.with_stack = part.with_stack_;
    MSP_RETURN_IF_ERROR(Open(shape));
  }
  rows_ += part.rows_;
  stat_columns_.Add(part.stat_columns_);
  summary_.Add(part.summary_);
  Status csv, json;
  tbb::parallel_invoke([&] { if (csv_) csv = csv_->AppendRendered(part.csv_); },
                       [&] { if (json_) json = json_->AppendRendered(part.json_); });
  for (const Status* status : {&csv, &json}) MSP_RETURN_IF_ERROR(*status);
  return Status::Ok();
}

void PutPairOutputsPart(std::string* dst, const PairOutputsPart& part) {
  PutVarint64(dst, part.rows_);
  PutEnum(dst, part.mode_);
  PutBool(dst, part.with_stack_);
  PutRenderedRows(dst, part.csv_);
  PutRenderedRows(dst, part.json_);
  PutPairSummary(dst, part.summary_);
  PutStatColumns(dst, part.stat_columns_);
}

bool GetPairOutputsPart(Decoder* in, PairOutputsPart* part) {
  uint64_t rows = 0;
  if (!GetVarint64(in, &rows) || !GetEnum(in, &part->mode_, CompareMode::kMd5) || !GetBool(in, &part->with_stack_) ||
      !GetRenderedRows(in, &part->csv_) || !GetRenderedRows(in, &part->json_) ||
      !GetPairSummary(in, &part->summary_) || !GetStatColumns(in, &part->stat_columns_)) {
    return false;
  }
  part->rows_ = rows;
  const CompareOptions& options = part->options_;
  for (const auto& [written, rendered, name] : {std::tuple{options.write_csv, &part->csv_, "csv"},
                                                std::tuple{options.write_json, &part->json_, "json"}}) {
    if (rendered->rows() != (written ? rows : 0)) {
      return in->Fail(fmt::format("{} {} rows for {}", rendered->rows(), name, written ? rows : 0));
    }
  }
  return true;
}

Status PairOutputs::Finish(std::chrono::steady_clock::time_point start, PairOutcome* outcome) && {
  PairResult& result = outcome->result;
  if (da_) {
    MSP_RETURN_IF_ERROR(std::move(*da_).Commit());
    result.outputs.push_back(da_json_);
  }
  if (csv_) {
    MSP_ASSIGN_OR_RETURN(std::vector<std::string> paths, std::move(*csv_).Commit());
    result.outputs.insert(result.outputs.end(), paths.begin(), paths.end());
  }
  // What the rows do not show: counted by the pair before its outputs finish (PairSummary adds the rest).
  if (xlsx_) xlsx_->NoteNotCompared(result.unmatched.target, result.unmatched.golden, result.unreadable_tensors);
  // With -da the xlsx waits for the analysis across ranks, to mark the first diff.
  if (xlsx_ && !options_.diff_analyze) {
    MSP_ASSIGN_OR_RETURN(std::vector<std::string> paths, std::move(*xlsx_).Commit());
    result.outputs.insert(result.outputs.end(), paths.begin(), paths.end());
  }
  if (json_) {
    MSP_RETURN_IF_ERROR(std::move(*json_).Commit());
    result.outputs.push_back(stem_ + ".json");
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  outcome->junit = std::move(summary_).Finish(result.RowFile(), seconds, &result);
  outcome->html_part = std::move(html_);
  if (options_.diff_analyze) {
    outcome->rank = std::move(rank_);
    outcome->diff_rows = std::move(diff_rows_);
    if (xlsx_) outcome->pending_xlsx = std::move(xlsx_);
  }
  return Status::Ok();
}

}  // namespace msprobe::compare::internal
