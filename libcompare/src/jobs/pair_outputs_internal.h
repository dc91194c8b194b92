// Everything one compared pair writes and reports, fed its finished result rows (metrics and
// verdicts in) one table at a time, in row order: the csv, json and xlsx results, -da's per-rank
// json and first-diff candidates, and the pair's summary and JUnit suite. A pair compared in memory
// feeds one table; a streamed pair feeds a table per batch of the target dump, and memory holds
// one batch (the xlsx keeps its rows in a temporary file until the row count is known).
#pragma once

#include <chrono>
#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "first_diff/compare_result_json_internal.h"
#include "jobs/compare_inputs_internal.h"
#include "jobs/run_report_internal.h"
#include "msprobe/compare/first_diff/diff_analyze.h"
#include "msprobe/compare/jobs/compare_job.h"
#include "msprobe/compare/table/rendered_rows.h"
#include "msprobe/compare/table/stat_columns.h"
#include "msprobe/compare/output/csv_writer.h"
#include "msprobe/compare/output/json_writer.h"
#include "msprobe/compare/table/result_table.h"
#include "msprobe/compare/output/xlsx_writer.h"
#include "msprobe/compare/report/report_part.h"
#include "msprobe/dump/util/status.h"

namespace msprobe::compare::internal {

// A row -da may name as the first diff: its reference and its API's stack, for the xlsx summary.
struct DiffRow {
  RowRef ref;
  std::string stack;
};

// What comparing one pair leaves for the run. Pairs are compared independently, possibly two at a
// time, and their outcomes recorded in pair order.
struct PairOutcome {
  PairResult result;
  std::optional<JunitSuite> junit;
  std::optional<RankDiffs> rank;                   // -da
  std::unordered_map<size_t, DiffRow> diff_rows;   // -da: the rows the analysis may name
  std::optional<XlsxResultStream> pending_xlsx;    // -da with an xlsx: committed after the analysis
  std::optional<ReportPart> html_part;            // --html: the pair's rows for the run's page
};

// Whether a pair's rows are made ready for its outputs away from them (PairOutputsPart): for the csv
// and json, not with -da's outputs or the --html page, which read the rows themselves, nor with a
// workbook (docs/distributed.md §8 says why).
bool RowsRenderApart(const CompareOptions& options);

// A pair's rows made ready for its outputs in another process (a statistics slice's rows, for its
// owner: docs/distributed.md §3.1): the csv's and json's rows rendered, and what the pair's summary
// and JUnit suite take from them, so that the owner appends bytes and adds counts, and decodes no
// row. Only where RowsRenderApart.
class PairOutputsPart {
 public:
  explicit PairOutputsPart(const CompareOptions& options) : options_(options), summary_(options) {}
  // The next rows, as PairOutputs::Append takes them.
  void Add(const ResultTable& table);
  size_t rows() const { return rows_; }

 private:
  friend class PairOutputs;
  friend void PutPairOutputsPart(std::string* dst, const PairOutputsPart& part);
  friend bool GetPairOutputsPart(Decoder* in, PairOutputsPart* part);

  const CompareOptions& options_;
  size_t rows_ = 0;
  CompareMode mode_ = CompareMode::kSummary;  // the tables' columns
  bool with_stack_ = false;
  RenderedRows csv_, json_;
  PairSummary summary_;
  StatColumns stat_columns_;
};

// In a message between processes (coding.h). Get reads into a part made with the run's options.
void PutPairOutputsPart(std::string* dst, const PairOutputsPart& part);
[[nodiscard]] bool GetPairOutputsPart(Decoder* in, PairOutputsPart* part);

class PairOutputs {
 public:
  // Output names: `stem` + ".csv" / ".xlsx" / ".json", and -da's json `da_json`; `label` names the
  // pair on the --html page. The output directory is made under `directories_mutex`, shared by the
  // pairs in flight.
  PairOutputs(const CompareOptions& options, const ComparePairSpec& spec, std::mutex& directories_mutex,
              std::string stem, std::string da_json, std::string label);

  // The next rows; `p2p` (-da) has one entry per row. The first call opens the files, with the
  // columns of this table.
  Status Append(const ResultTable& table, const std::vector<P2pColumns>& p2p);
  // The next rows, made ready elsewhere: as if their tables were appended.
  Status Append(const PairOutputsPart& part);
  // Commits the files (all or none) and fills the outcome: outputs, summary, JUnit, -da's ops; the
  // xlsx of a -da run stays pending. A pair that appended nothing writes nothing.
  // `start`: when the pair began, for its JUnit time.
  Status Finish(std::chrono::steady_clock::time_point start, PairOutcome* outcome) &&;
  // -da: an API of this table ran on from, or came back after, an earlier table's. Its checks
  // would differ from one table's: the caller compares the pair in memory instead.
  bool split_api() const { return split_api_; }
  // A statistic column of the tables so far is pandas' float64 (table/stat_columns.h): its integers
  // print as floats, which only the whole table can say; the caller compares the pair in memory.
  bool ints_as_floats() const { return stat_columns_.AnyIntsBecomeFloats(); }

 private:
  Status Open(const ResultTable& shape);
  // -da: the table's API checks, its ops (rows numbered in the whole pair) and their rows.
  std::vector<ApiCheck> CollectDiffs(const ResultTable& table, const std::vector<P2pColumns>& p2p, size_t offset);

  const CompareOptions& options_;
  const ComparePairSpec& spec_;
  std::mutex& directories_mutex_;
  std::string stem_, da_json_, label_;
  bool opened_ = false;
  size_t rows_ = 0;
  std::optional<CsvResultStream> csv_;
  std::optional<JsonResultStream> json_;
  std::optional<XlsxResultStream> xlsx_;
  std::optional<CompareResultJsonStream> da_;
  std::optional<ReportPart> html_;
  PairSummary summary_;
  RankDiffs rank_;
  std::unordered_map<size_t, DiffRow> diff_rows_;
  std::string last_row_api_, batch_api_;  // -da: across tables, the last row's API and its batch's
  std::unordered_set<std::string> apis_;  // -da: the APIs that started a batch so far
  bool split_api_ = false;
  StatColumns stat_columns_;
};

}  // namespace msprobe::compare::internal
