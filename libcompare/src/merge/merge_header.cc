#include "merge/merge_header_internal.h"

#include <algorithm>

namespace msprobe::compare {
namespace {

using Names = std::vector<std::string>;

Names Concat(std::initializer_list<const Names*> parts) {
  Names out;
  for (const Names* p : parts) out.insert(out.end(), p->begin(), p->end());
  return out;
}

const Names kBasic = {"NPU Name",         "Bench Name",         "NPU Dtype",         "Bench Dtype",
                      "NPU Tensor Shape", "Bench Tensor Shape", "NPU Requires_grad", "Bench Requires_grad"};
const Names kStats = {"NPU max", "NPU min", "NPU mean", "NPU l2norm", "Bench max", "Bench min", "Bench mean", "Bench l2norm"};
const Names kAllMetrics = {"Cosine", "EucDist", "MaxAbsErr", "MaxRelativeErr", "One Thousandth Err Ratio",
                           "Five Thousandths Err Ratio"};
const Names kSummaryMetrics = {"Max diff",       "Min diff",       "Mean diff",       "L2norm diff",
                               "MaxRelativeErr", "MinRelativeErr", "MeanRelativeErr", "NormRelativeErr"};
const Names kMd5Columns = {"NPU MD5", "BENCH MD5"};
const Names kTail = {"Requires_grad Consistent", "Result", "Err_message"};
const Names kOldAllTail = {"Requires_grad Consistent", "Accuracy Reached or Not", "Err_message"};
const Names kOldMd5Tail = {"Requires_grad Consistent", "Result"};
const Names kStack = {"NPU_Stack_Info"};
const Names kDataName = {"Data_name"};

struct KnownHeader {
  Names names;
  MergeMode mode;
};

// docs/formats.md §5.3: NEW (G3) and OLD (G2) headers, each with and without NPU_Stack_Info.
const std::vector<KnownHeader>& KnownHeaders() {
  static const std::vector<KnownHeader> headers = {
      {Concat({&kBasic, &kAllMetrics, &kStats, &kTail, &kDataName}), MergeMode::kAll},
      {Concat({&kBasic, &kAllMetrics, &kStats, &kTail, &kStack, &kDataName}), MergeMode::kAll},
      {Concat({&kBasic, &kAllMetrics, &kStats, &kOldAllTail, &kDataName}), MergeMode::kAll},
      {Concat({&kBasic, &kAllMetrics, &kStats, &kOldAllTail, &kStack, &kDataName}), MergeMode::kAll},
      {Concat({&kBasic, &kSummaryMetrics, &kStats, &kTail}), MergeMode::kSummary},
      {Concat({&kBasic, &kSummaryMetrics, &kStats, &kTail, &kStack}), MergeMode::kSummary},
      {Concat({&kBasic, &kMd5Columns, &kTail}), MergeMode::kMd5},
      {Concat({&kBasic, &kMd5Columns, &kTail, &kStack}), MergeMode::kMd5},
      {Concat({&kBasic, &kMd5Columns, &kOldMd5Tail}), MergeMode::kMd5},
      {Concat({&kBasic, &kMd5Columns, &kOldMd5Tail, &kStack}), MergeMode::kMd5},
  };
  return headers;
}

}  // namespace

MergeMode DetectMergeMode(const std::vector<std::string>& header) {
  for (const KnownHeader& known : KnownHeaders()) {
    if (known.names == header) return known.mode;
  }
  return MergeMode::kUnknown;
}

const std::vector<std::string>& MergeableIndexes(MergeMode mode) {
  static const Names kAllIndexes = [] {
    Names n = kAllMetrics;
    n.push_back("Requires_grad Consistent");
    return n;
  }();
  static const Names kSummaryIndexes = [] {
    Names n = kSummaryMetrics;
    n.push_back("Requires_grad Consistent");
    return n;
  }();
  static const Names kNone;
  switch (mode) {
    case MergeMode::kAll: return kAllIndexes;
    case MergeMode::kSummary: return kSummaryIndexes;
    case MergeMode::kMd5:
    case MergeMode::kUnknown: break;
  }
  return kNone;
}

}  // namespace msprobe::compare
