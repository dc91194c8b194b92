#include "msprobe/compare/table/result_row.h"

#include <fmt/format.h>

#include "msprobe/dump/text/python_format.h"
#include "msprobe/dump/text/python_json.h"
#include "msprobe/dump/util/coding.h"

namespace msprobe::compare {
namespace {

const std::vector<std::string> kBasic = {"NPU Name", "Bench Name", "NPU Dtype", "Bench Dtype", "NPU Tensor Shape",
                                         "Bench Tensor Shape", "NPU Requires_grad", "Bench Requires_grad"};
const std::vector<std::string> kStats = {"NPU max", "NPU min", "NPU mean", "NPU l2norm",
                                         "Bench max", "Bench min", "Bench mean", "Bench l2norm"};
const std::vector<std::string> kTensorMetrics = {"Cosine", "EucDist", "MaxAbsErr", "MaxRelativeErr",
                                                 "One Thousandth Err Ratio", "Five Thousandths Err Ratio"};
const std::vector<std::string> kStatsDiffs = {"Max diff", "Min diff", "Mean diff", "L2norm diff",
                                              "MaxRelativeErr", "MinRelativeErr", "MeanRelativeErr", "NormRelativeErr"};

void Append(std::vector<std::string>* out, const std::vector<std::string>& more) {
  out->insert(out->end(), more.begin(), more.end());
}

}  // namespace

std::string_view AccuracyName(Accuracy accuracy) {
  switch (accuracy) {
    case Accuracy::kNotChecked: return "";
    case Accuracy::kYes: return "Yes";
    case Accuracy::kNo: return "No";
    case Accuracy::kNone: return "None";
    case Accuracy::kUnmatched: return "Unmatched";
  }
  return "";
}

std::string MatchText(MatchOrigin origin, float align_score) {
  switch (origin) {
    case MatchOrigin::kName: return "name";
    case MatchOrigin::kFuzzy: return "fuzzy";
    case MatchOrigin::kMapping: return "mapping";
    case MatchOrigin::kAligned: return fmt::format("aligned ({:.2f})", align_score);
    case MatchOrigin::kUnmatched: break;
  }
  return "unmatched";
}

std::vector<std::string> ResultHeader(CompareMode mode, bool with_stack, ResultLayout layout) {
  if (layout == ResultLayout::kKernel) {
    std::vector<std::string> h(kBasic.begin(), kBasic.begin() + 6);  // no Requires_grad columns
    Append(&h, kStats);
    Append(&h, {"Accuracy Reached or Not", "Err_message"});
    if (mode == CompareMode::kTensor) {
      Append(&h, kTensorMetrics);
    } else {
      Append(&h, kStatsDiffs);
      Append(&h, {"NPU CSV File", "Bench CSV File"});
    }
    return h;
  }
  std::vector<std::string> h = kBasic;
  switch (mode) {
    case CompareMode::kTensor: Append(&h, kTensorMetrics); Append(&h, kStats); break;
    case CompareMode::kSummary: Append(&h, kStatsDiffs); Append(&h, kStats); break;
    case CompareMode::kMd5: Append(&h, {"NPU MD5", "BENCH MD5"}); break;
  }
  Append(&h, {"Requires_grad Consistent", "Result", "Err_message"});
  if (with_stack) h.push_back("NPU_Stack_Info");
  if (mode == CompareMode::kTensor) h.push_back("Data_name");
  return h;
}

std::vector<std::string> MetricColumnNames(CompareMode mode) {
  switch (mode) {
    case CompareMode::kTensor: return kTensorMetrics;
    case CompareMode::kSummary: return kStatsDiffs;
    case CompareMode::kMd5: break;
  }
  return {"NPU MD5", "BENCH MD5"};
}

std::string ErrMessageText(const ResultRow& row, ResultLayout layout) {
  if (layout == ResultLayout::kCompare) return JsonDumpsStrings(row.err_messages);
  std::string joined;
  for (const std::string& m : row.err_messages) joined += m;
  return joined;
}

void VisitResultCells(const ResultRow& r, CompareMode mode, bool with_stack, ResultLayout layout,
                      ResultCellVisitor* visitor) {
  for (const std::string* s :
       {&r.target_name, &r.golden_name, &r.target_dtype, &r.golden_dtype, &r.target_shape, &r.golden_shape}) {
    visitor->Text(*s);
  }
  if (layout == ResultLayout::kKernel) {
    for (const Cell& cell : r.target_stats) visitor->Value(cell);
    for (const Cell& cell : r.golden_stats) visitor->Value(cell);
    visitor->Text(AccuracyName(r.accuracy));
    if (r.err_messages.size() == 1) {
      visitor->Text(r.err_messages.front());  // no copy for the usual single message
    } else {
      visitor->Text(ErrMessageText(r, layout));
    }
    for (const Cell& cell : r.metrics) visitor->Value(cell);
    if (mode != CompareMode::kTensor) {
      visitor->Text(r.target_data_name);
      visitor->Text(r.golden_data_name);
    }
    return;
  }
  visitor->Text(r.target_requires_grad);
  visitor->Text(r.golden_requires_grad);
  for (const Cell& cell : r.metrics) visitor->Value(cell);
  if (mode != CompareMode::kMd5) {
    for (const Cell& cell : r.target_stats) visitor->Value(cell);
    for (const Cell& cell : r.golden_stats) visitor->Value(cell);
  }
  visitor->Value(Cell::Bool(r.requires_grad_consistent));
  visitor->Text(VerdictName(r.result));
  visitor->Text(ErrMessageText(r, layout));
  if (with_stack) visitor->Text(r.stack_info);
  if (mode == CompareMode::kTensor) visitor->ListText(PythonListOfStrings({r.target_data_name, r.golden_data_name}));
}

std::vector<Cell> ResultCells(const ResultRow& r, CompareMode mode, bool with_stack, ResultLayout layout) {
  class Collect : public ResultCellVisitor {
   public:
    void Text(std::string_view text) override { cells.push_back(Cell::Text(std::string(text))); }
    void Value(const Cell& cell) override { cells.push_back(cell); }
    std::vector<Cell> cells;
  } collect;
  collect.cells.reserve(30);
  VisitResultCells(r, mode, with_stack, layout, &collect);
  return std::move(collect.cells);
}

void PutResultRow(std::string* dst, const ResultRow& row) {
  for (const std::string* s : {&row.target_name, &row.golden_name, &row.target_dtype, &row.golden_dtype,
                               &row.target_shape, &row.golden_shape, &row.target_requires_grad,
                               &row.golden_requires_grad}) {
    PutString(dst, *s);
  }
  PutVector(dst, row.metrics, PutCell);
  for (const Cell& c : row.target_stats) PutCell(dst, c);
  for (const Cell& c : row.golden_stats) PutCell(dst, c);
  PutBool(dst, row.requires_grad_consistent);
  PutEnum(dst, row.result);
  PutEnum(dst, row.accuracy);
  PutVector(dst, row.err_messages, PutString);
  for (const std::string* s : {&row.stack_info, &row.target_data_name, &row.golden_data_name, &row.api})
    PutString(dst, *s);
  PutEnum(dst, row.state);
  PutBool(dst, row.matched);
  PutBool(dst, row.golden_only);
  PutSignedVarint32(dst, row.attribution);
}

bool GetResultRow(Decoder* in, ResultRow* row) {
  for (std::string* s :
       {&row->target_name, &row->golden_name, &row->target_dtype, &row->golden_dtype, &row->target_shape,
        &row->golden_shape, &row->target_requires_grad, &row->golden_requires_grad}) {
    if (!GetString(in, s)) return false;
  }
  if (!GetVector(in, &row->metrics, GetCell)) return false;
  for (Cell& c : row->target_stats) {
    if (!GetCell(in, &c)) return false;
  }
  for (Cell& c : row->golden_stats) {
    if (!GetCell(in, &c)) return false;
  }
  if (!GetBool(in, &row->requires_grad_consistent) || !GetEnum(in, &row->result, Verdict::kError) ||
      !GetEnum(in, &row->accuracy, Accuracy::kUnmatched) || !GetVector(in, &row->err_messages, GetString)) {
    return false;
  }
  for (std::string* s : {&row->stack_info, &row->target_data_name, &row->golden_data_name, &row->api}) {
    if (!GetString(in, s)) return false;
  }
  return GetEnum(in, &row->state, RowState::kDebug) && GetBool(in, &row->matched) &&
         GetBool(in, &row->golden_only) && GetSignedVarint32(in, &row->attribution);
}

}  // namespace msprobe::compare
