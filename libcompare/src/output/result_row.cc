#include "msprobe/compare/output/result_row.h"

#include "msprobe/dump/formats/python_format.h"

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

std::vector<std::string> ResultHeader(CompareMode mode, bool with_stack) {
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

void VisitResultCells(const ResultRow& r, CompareMode mode, bool with_stack, ResultCellVisitor* visitor) {
  if (!r.cells.empty()) {  // a table with its own header (ResultTable::header)
    for (const Cell& cell : r.cells) visitor->Value(cell);
    return;
  }
  for (const std::string* s : {&r.npu_name, &r.bench_name, &r.npu_dtype, &r.bench_dtype, &r.npu_shape,
                               &r.bench_shape, &r.npu_requires_grad, &r.bench_requires_grad}) {
    visitor->Text(*s);
  }
  for (const Cell& cell : r.metrics) visitor->Value(cell);
  if (mode != CompareMode::kMd5) {
    for (const Cell& cell : r.npu_stats) visitor->Value(cell);
    for (const Cell& cell : r.bench_stats) visitor->Value(cell);
  }
  visitor->Value(Cell::Bool(r.requires_grad_consistent));
  visitor->Text(VerdictName(r.result));
  visitor->Text(JsonDumpsStrings(r.err_messages));
  if (with_stack) visitor->Text(r.stack_info);
  if (mode == CompareMode::kTensor) visitor->Text(PythonListOfStrings({r.npu_data_name, r.bench_data_name}));
}

std::vector<Cell> ResultCells(const ResultRow& r, CompareMode mode, bool with_stack) {
  class Collect : public ResultCellVisitor {
   public:
    void Text(std::string_view text) override { cells.push_back(Cell::Text(std::string(text))); }
    void Value(const Cell& cell) override { cells.push_back(cell); }
    std::vector<Cell> cells;
  } collect;
  collect.cells.reserve(30);
  VisitResultCells(r, mode, with_stack, &collect);
  return std::move(collect.cells);
}

}  // namespace msprobe::compare
