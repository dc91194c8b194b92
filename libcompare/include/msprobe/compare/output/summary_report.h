// summary.json, the machine-readable digest of a compare run (ours, docs/summary.schema.json): inputs,
// version, counts per Result and of the rows not compared, the first error, the first diff of -da,
// and the 20 worst rows by the main metric (Cosine ascending in tensor mode, NormRelativeErr
// descending in statistics mode); plus the row references the CI gates and reports share.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/compare/table/result_table.h"
#include "msprobe/dump/util/status.h"

namespace msprobe::compare {

struct CompareReport;

// One row of a result file, named for people and pipelines.
struct RowRef {
  std::string file;       // the pair's first output (or the compared json when none was written)
  size_t row = 0;         // 0-based data row of the pair's table; reports show where it is (row_place.h)
  std::string target_name, api;
  Verdict result = Verdict::kPass;
  std::string err_message;
};

RowRef MakeRowRef(const ResultTable& table, size_t row, const std::string& file);
// A row reference in a message between processes (coding.h).
void PutRowRef(std::string* dst, const RowRef& ref);
[[nodiscard]] bool GetRowRef(Decoder* in, RowRef* ref);

struct WorstRow {
  size_t row = 0;
  std::string target_name;
  Verdict result = Verdict::kPass;
  double value = 0;  // Cosine, or NormRelativeErr as a fraction (inf when the golden value is 0)
};
void PutWorstRow(std::string* dst, const WorstRow& row);
[[nodiscard]] bool GetWorstRow(Decoder* in, WorstRow* row);
// Up to `n` rows with a numeric main metric, worst first (ties in row order); none in md5 mode.
std::vector<WorstRow> WorstRows(const ResultTable& table, size_t n);
// Sorts `rows` worst first as WorstRows ranks them and keeps the first `n` (worst rows of several
// pieces of one table, their rows numbered in the whole table).
void KeepWorst(std::vector<WorstRow>* rows, CompareMode mode, size_t n);
// The main metric of a row as a number: Cosine as it is; NormRelativeErr's "12.3%" as 0.123 and
// "inf" (golden value 0) as infinity. Texts such as "N/A", "Nan" or "unsupported" have none.
std::optional<double> MainMetric(const ResultRow& row, CompareMode mode);
// The main metric's name: "Cosine", "NormRelativeErr" or "" (md5).
const char* MainMetricName(CompareMode mode);

// What summary.json says of the run's command line.
struct SummaryInputs {
  std::string tool_version, target_path, golden_path;
  bool diff_analyze = false;
  bool attribute = false;  // --attribute: summary.json has first_cause
};

// Writes the summary of `report` to `path` atomically (docs/summary.schema.json). A run that failed
// after it began writing (`failure`) says so in "error", with the pairs it finished.
Status WriteSummaryJson(const std::string& path, const SummaryInputs& inputs, const CompareReport& report,
                        const Status& failure = Status::Ok());

}  // namespace msprobe::compare
