// The rows of one compared pair (a rank, a proc, or a file pair) as the HTML report needs them, kept
// column by column: numbers as doubles, repeated texts as StringPool indices, names split into their
// API and an interned tail. Fed one ResultRow at a time, so a pipeline streaming its rows to the
// writers can fill it without holding a ResultTable.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "msprobe/compare/table/result_row.h"
#include "msprobe/compare/report/string_pool.h"

namespace msprobe::compare {

// One metric column of the page's table. Text cells ("N/A", "unsupported", md5 sums) are NaN in
// `values` and listed in `texts` as (row, StringPool index); a text "12.3%" is the number 12.3 in a
// `percent` column, so the page can sort and chart it.
struct ReportMetricColumn {
  std::string name;
  bool percent = false;
  std::vector<double> values;
  std::vector<std::pair<uint32_t, uint32_t>> texts;
};

// What the page calls a part's rows: the kind of run ("ALL", "SUMMARY", "MD5" as compared, or
// "RECOMPUTE"), its metric columns, and the label of the main metric it charts ("" for none).
struct ReportColumns {
  std::string kind;
  std::vector<std::string> metrics;
  std::string main_metric;
};
// A compare's: msprobe's metric columns of the mode; 1 - Cosine or |NormRelativeErr| (docs/compare.md §5.3).
ReportColumns CompareReportColumns(CompareMode mode);

// One row as the page shows it, whatever made it (a compare's ResultRow, a recompute's call).
struct ReportRow {
  std::string_view target_name, golden_name, api, dtype, shape, err_message;
  Verdict verdict = Verdict::kPass;
  double main_metric = 0;  // as charted; NaN: none
  std::span<const Cell> metrics;  // in ReportColumns::metrics order
};

class ReportPart {
 public:
  // `label` names the pair on the page ("rank0"); `construct_json` is the module tree beside its
  // target dump.json ("" or a missing file: the page lists its APIs flat).
  ReportPart(std::string label, ReportColumns columns, std::string construct_json);
  // A compare's part, whose ResultRows are added as they are. `with_match`: --align's Match column
  // (ResultTable::with_match), shown as a last text column after the metrics.
  ReportPart(std::string label, CompareMode mode, std::string construct_json, bool with_match = false);

  void AddRow(const ReportRow& row);
  void AddRow(const ResultRow& row);  // only for a compare's part

  const std::string& label() const { return label_; }
  const std::string& kind() const { return kind_; }
  const std::string& main_metric_label() const { return main_metric_label_; }
  const std::string& construct_json() const { return construct_json_; }
  size_t rows() const { return verdicts_.size(); }
  const StringPool& strings() const { return strings_; }
  // Per row: the index of its API in apis(); the StringPool index of the rest of its NPU name
  // (target_name == apis()[api] + tail), or of the whole name when it does not start with its API.
  const std::vector<uint32_t>& api_of_row() const { return api_of_row_; }
  const std::vector<uint32_t>& tails() const { return tails_; }
  const std::vector<uint8_t>& whole_names() const { return whole_names_; }  // 1: tails() holds the whole name
  const std::vector<std::string>& apis() const { return apis_.strings(); }
  // Rows whose Bench Name differs from the NPU name (unmatched rows' "N/A", mapped names).
  const std::vector<std::pair<uint32_t, uint32_t>>& golden_names() const { return golden_names_; }
  const std::vector<uint32_t>& dtypes() const { return dtypes_; }
  const std::vector<uint32_t>& shapes() const { return shapes_; }
  const std::vector<uint32_t>& err_messages() const { return err_messages_; }
  const std::vector<uint8_t>& verdicts() const { return verdicts_; }
  // The main metric as charted (for a compare: 1 - Cosine, or |NormRelativeErr| as a fraction); NaN
  // where the row has none.
  const std::vector<double>& main_metric() const { return main_metric_; }
  const std::vector<ReportMetricColumn>& metrics() const { return metrics_; }

 private:
  friend void PutReportPart(std::string* dst, const ReportPart& part);
  friend bool GetReportPart(Decoder* in, std::optional<ReportPart>* part);
  void AddMetric(size_t column, const Cell& cell, uint32_t row);

  std::string label_, kind_, main_metric_label_;
  std::optional<CompareMode> mode_;  // a compare's part
  std::string construct_json_;
  StringPool strings_;
  StringPool apis_;
  // The index each column gave the row added last (StringPool::Intern's `last`).
  uint32_t last_api_ = 0, last_dtype_ = 0, last_shape_ = 0, last_err_ = 0;
  std::vector<uint32_t> api_of_row_, tails_, dtypes_, shapes_, err_messages_;
  std::vector<uint8_t> whole_names_, verdicts_;
  std::vector<std::pair<uint32_t, uint32_t>> golden_names_;
  std::vector<double> main_metric_;
  std::vector<ReportMetricColumn> metrics_;
  bool with_match_ = false;
};

// A part in a message between processes (coding.h): its columns as they are, its two string pools
// by their strings, interned again in order (which gives every string its index back). GetReportPart
// sets *part (a part has no empty state to decode into).
void PutReportPart(std::string* dst, const ReportPart& part);
[[nodiscard]] bool GetReportPart(Decoder* in, std::optional<ReportPart>* part);

}  // namespace msprobe::compare
