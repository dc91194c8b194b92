#include "msprobe/compare/metrics/verdict.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <charconv>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "msprobe/compare/metrics/stats_diff.h"
#include "msprobe/compare/metrics/thresholds.h"
#include "msprobe/dump/text/python_format.h"
#include "msprobe/dump/text/python_parse.h"

#include <fmt/format.h>

namespace msprobe::compare {
namespace {

// Exact texts of msprobe's checkers (docs/compare.md §5.1).
constexpr const char* kInfNanMsg = "error: There is nan/inf/-inf in the maximum or minimum value of NPU.";
// Says 0.6 while the check uses kOneThousandthOutputMax (0.1): msprobe prints this text.
constexpr const char* kOneThousandthMsg =
    "error: The input/parameters of One Thousandth Err Ratio > 0.9 while the output < 0.6.";
constexpr const char* kRelativeErrMsg = "error: The NormRelativeErr of output is greater than 0.5.";
constexpr const char* kRequiresGradMsg = "error: The Required_Grad of NPU and Bench are inconsistent";
constexpr const char* kParametersMsg = "error: The scalar parameters of NPU and Bench are inconsistent.";
constexpr const char* kDtypeMsg = "error: The dtype of NPU and Bench are inconsistent.";
constexpr const char* kShapeMsg = "error: The shape of NPU and Bench are inconsistent.";
constexpr const char* kCosineWarnMsg =
    "warning: The input/parameters of Cosine > 0.9, and input/parameters - output > 0.1";
constexpr const char* kRelativeWarnMsg = "warning: The norm relative error of output is 10 times that of input.";
constexpr const char* kCrcMismatchMsg = "warning: The parameter of NPU does not match the bench.";
constexpr const char* kCrcDiffersMsg = "error: The CRC-32 value of NPU differs from that of the bench.";

enum class Ignore : uint8_t { kNone, kInputs, kAll };

struct Entry {
  ResultRow* row;
};

using Entries = std::span<Entry* const>;

// One API's rows, as two adjacent runs of one array: its inputs, then its outputs (NPU Name
// contains ".output."), each in row order.
struct ApiGroup {
  Entries inputs, outputs;
  Ignore ignore = Ignore::kNone;

  // Rows the per-row checkers visit (get_data_list_by_ignore_info).
  Entries Checked() const {
    if (ignore == Ignore::kAll) return {};
    if (ignore == Ignore::kInputs) return outputs;
    return All();
  }
  Entries All() const { return {inputs.data(), inputs.size() + outputs.size()}; }
};

void Flag(Entry* e, Verdict level, const char* message) {
  e->row->result = std::max(e->row->result, level);
  e->row->err_messages.emplace_back(message);
}

const Cell& Metric(const ResultRow& row, int index) {
  static const Cell kMissing = Cell::NA();
  return index < static_cast<int>(row.metrics.size()) ? row.metrics[index] : kMissing;
}

std::string_view Strip(std::string_view s, std::string_view chars) {
  const size_t b = s.find_first_not_of(chars);
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(chars) - b + 1);
}

// msprobe's str2float: strip '%' from both ends, float() / 100; anything else (a non-string
// value included) is 0.
double Str2Float(const Cell& c) {
  if (!c.is_text()) return 0;
  const std::optional<double> v = PythonFloat(Strip(c.text(), "%"));
  return v ? *v / 100 : 0;
}

// get_min_or_max_value: fold one metric over rows starting at 1.0 (min) or 0.0 (max), skipping
// "Nan", "N/A" and every string that does not end in '%' (so '0', 'inf' and 'unsupported').
double Agg(Entries rows, int column, bool is_min) {
  double acc = is_min ? 1.0 : 0.0;
  for (const Entry* e : rows) {
    const Cell& c = Metric(*e->row, column);
    double v;
    if (c.is_text()) {
      if (c.text() == "Nan" || c.text() == "N/A" || c.text().empty() || c.text().back() != '%') continue;
      v = Str2Float(c);
    } else {
      v = c.kind() == Cell::Kind::kBool ? static_cast<double>(c.boolean()) : c.number();
    }
    // Python min()/max() keep the first argument unless the second compares less/greater,
    // so a NaN never replaces the running value.
    if (is_min ? v < acc : v > acc) acc = v;
  }
  return acc;
}

bool IsInfOrNan(const Cell& c) {
  if (c.kind() == Cell::Kind::kFloat) return std::isnan(c.number()) || std::isinf(c.number());
  if (!c.is_text()) return false;
  std::string s(Strip(c.text(), " \t\n\r\f\v"));
  for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s == "inf" || s == "-inf" || s == "nan";
}

// Python `a == b` on the statistic values: numbers compare by value (1 == 1.0), a number never
// equals a string, strings (and msprobe's "True"/"False" booleans) compare as text.
bool PythonEquals(const Cell& a, const Cell& b) {
  const bool a_num = a.kind() == Cell::Kind::kFloat || a.kind() == Cell::Kind::kInt;
  const bool b_num = b.kind() == Cell::Kind::kFloat || b.kind() == Cell::Kind::kInt;
  if (a_num != b_num) return false;
  if (!a_num) return a.ToPython() == b.ToPython();
  if (a.kind() == Cell::Kind::kInt && b.kind() == Cell::Kind::kInt) return a.integer() == b.integer();
  return a.number() == b.number();
}

template <size_t N>
bool Contains(const std::array<std::string_view, N>& set, std::string_view s) {
  return std::find(set.begin(), set.end(), s) != set.end();
}

// Keyed on name.split('.')[1] of the group's first input row; no input rows, no ignoring.
Ignore IgnoreOf(const ApiGroup& g) {
  if (g.inputs.empty()) return Ignore::kNone;
  const std::string& name = g.inputs.front()->row->target_name;
  const size_t first = name.find('.');
  if (first == std::string::npos) return Ignore::kNone;
  const size_t second = name.find('.', first + 1);
  const std::string_view api = std::string_view(name).substr(first + 1, second == std::string::npos
                                                                             ? std::string::npos
                                                                             : second - first - 1);
  if (Contains(kAllIgnoreApis, api)) return Ignore::kAll;
  if (Contains(kInputIgnoreApis, api)) return Ignore::kInputs;
  return Ignore::kNone;
}

bool GroupChecksSkipped(const ApiGroup& g) { return g.ignore != Ignore::kNone; }

// --- Checkers, in the order msprobe runs them ---

void InfNan(const ApiGroup& g) {
  for (Entry* e : g.Checked()) {
    const ResultRow& r = *e->row;
    if (IsInfOrNan(r.golden_stats[0]) || IsInfOrNan(r.golden_stats[1])) continue;  // golden has it too
    if (IsInfOrNan(r.target_stats[0]) || IsInfOrNan(r.target_stats[1])) Flag(e, Verdict::kError, kInfNanMsg);
  }
}

void OneThousandth(const ApiGroup& g) {
  if (GroupChecksSkipped(g) || g.outputs.empty()) return;
  if (Agg(g.inputs, kOneThousandth, true) > kOneThousandthInputMin &&
      Agg(g.outputs, kOneThousandth, true) < kOneThousandthOutputMax) {
    Flag(g.outputs.front(), Verdict::kError, kOneThousandthMsg);
  }
}

void RelativeErr(const ApiGroup& g) {
  if (GroupChecksSkipped(g)) return;
  if (!(std::fabs(Agg(g.inputs, kNormRel, false)) < kRelativeErrInputMax)) return;
  for (Entry* e : g.outputs) {
    if (std::fabs(Str2Float(Metric(*e->row, kNormRel))) > kRelativeErrOutputMin) {
      Flag(e, Verdict::kError, kRelativeErrMsg);
    }
  }
}

void RequiresGrad(const ApiGroup& g) {
  for (Entry* e : g.Checked()) {
    const ResultRow& r = *e->row;
    if (IsUnmatched(r) || r.target_requires_grad.empty() || r.golden_requires_grad.empty()) continue;
    if (r.target_requires_grad != r.golden_requires_grad) Flag(e, Verdict::kError, kRequiresGradMsg);
  }
}

void Parameters(const ApiGroup& g) {
  if (GroupChecksSkipped(g)) return;
  for (Entry* e : g.inputs) {
    const ResultRow& r = *e->row;
    if (IsUnmatched(r) || r.target_dtype.empty() || r.golden_dtype.empty()) continue;
    // Non-tensor scalars have dtypes like "<class 'int'>" and shape "[]".
    if (r.target_dtype.find("class") == std::string::npos || r.golden_dtype.find("class") == std::string::npos) {
      continue;
    }
    if (r.target_shape != "[]") continue;
    if (!PythonEquals(r.target_stats[0], r.golden_stats[0])) Flag(e, Verdict::kError, kParametersMsg);
  }
}

void Dtype(const ApiGroup& g) {
  for (Entry* e : g.Checked()) {
    const ResultRow& r = *e->row;
    if (IsUnmatched(r) || r.target_name == "N/A") continue;  // a rollout-only row (--consistent_check)
    const bool fused = std::any_of(kDtypeCheckSkipNames.begin(), kDtypeCheckSkipNames.end(),
                                   [&](std::string_view s) { return r.golden_name.find(s) != std::string::npos; });
    if (fused || r.target_dtype.empty() || r.golden_dtype.empty()) continue;
    if (r.target_dtype != r.golden_dtype) Flag(e, Verdict::kError, kDtypeMsg);
  }
}

void Shape(const ApiGroup& g) {
  for (Entry* e : g.Checked()) {
    const ResultRow& r = *e->row;
    if (!IsUnmatched(r) && r.target_shape != r.golden_shape) Flag(e, Verdict::kError, kShapeMsg);
  }
}

// s.split(",") with each part stripped of whitespace.
std::vector<std::string_view> SplitStrip(std::string_view s) {
  std::vector<std::string_view> parts = PythonSplit(s, ',');
  for (std::string_view& p : parts) p = Strip(p, " \t\n\r\f\v");
  return parts;
}

// VerlShapeErrChecker's squeeze_shape_str: "[1, 217, 1, 896]" → "[217,896]" (text, '[' and ']'
// stripped from both ends, the parts "1" dropped).
std::string SqueezedShapeText(std::string_view shape) {
  const std::vector<std::string_view> parts = SplitStrip(Strip(shape, "[]"));
  std::string out = "[";
  bool first = true;
  for (std::string_view p : parts) {
    if (p == "1") continue;
    if (!first) out += ',';
    out += p;
    first = false;
  }
  return out + "]";
}

void VerlShape(const ApiGroup& g, ConsistentBackend backend) {
  for (Entry* e : g.Checked()) {
    const ResultRow& r = *e->row;
    if (r.target_name == "N/A" || r.golden_name == "N/A") continue;
    if (backend == ConsistentBackend::kFsdp && (r.golden_name.find("qkv") != std::string::npos ||
                                                 r.golden_name.find("gate_up") != std::string::npos)) {
      continue;  // a fused rollout row against the training rows it joins
    }
    std::string target = SqueezedShapeText(r.target_shape);
    const std::string golden = SqueezedShapeText(r.golden_shape);
    const std::vector<std::string_view> dims = SplitStrip(Strip(target, "[]"));
    if (backend == ConsistentBackend::kMegatron && dims.size() == 3 &&
        dims.size() != SplitStrip(Strip(golden, "[]")).size()) {
      // Megatron's [T, 1, d] activations against the rollout's [T, d]: the last two dims merged.
      int64_t d[3];
      bool ints = true;
      for (size_t k = 0; k < 3; ++k) {
        const auto [end, ec] = std::from_chars(dims[k].data(), dims[k].data() + dims[k].size(), d[k]);
        ints = ints && ec == std::errc() && end == dims[k].data() + dims[k].size();
      }
      if (ints) target = fmt::format("[{},{}]", d[0], d[1] * d[2]);
    }
    if (target != golden) Flag(e, Verdict::kError, kShapeMsg);
  }
}

void CosineWarn(const ApiGroup& g) {
  if (GroupChecksSkipped(g) || g.outputs.empty()) return;
  const double in = Agg(g.inputs, kCosine, true), out = Agg(g.outputs, kCosine, true);
  if (in > kCosineWarnInputMin && in - out > kCosineWarnDrop) Flag(g.outputs.front(), Verdict::kWarning, kCosineWarnMsg);
}

void RelativeWarn(const ApiGroup& g) {
  if (GroupChecksSkipped(g) || g.outputs.empty()) return;
  const double in = std::fabs(Agg(g.inputs, kNormRel, false));
  const double out = std::fabs(Agg(g.outputs, kNormRel, false));
  const bool fire = in == 0 ? out > kRelativeWarnZeroInput : out / in > kRelativeWarnRatio;
  if (fire) Flag(g.outputs.front(), Verdict::kWarning, kRelativeWarnMsg);
}

void Crc32(const ApiGroup& g) {
  for (Entry* e : g.Checked()) {
    const std::string target = Metric(*e->row, 0).ToPython(), golden = Metric(*e->row, 1).ToPython();
    if (target == golden) continue;
    // docs/compare.md §5.1 counts '' with N/A and Nan as "not matched".
    const auto missing = [](const std::string& s) { return s == "N/A" || s == "Nan" || s.empty(); };
    if (missing(target) || missing(golden)) {
      Flag(e, Verdict::kWarning, kCrcMismatchMsg);
    } else {
      Flag(e, Verdict::kError, kCrcDiffersMsg);
    }
  }
}

// msprobe's calculate_excel_result_df lists the rows group after group (each group's rows in table
// order) and writes their verdicts onto the table's rows 0, 1, 2, ... in that order.
void WriteBackInGroupOrder(const std::vector<ApiGroup>& groups, std::vector<ResultRow>* rows) {
  std::vector<const ResultRow*> listed;
  listed.reserve(rows->size());
  for (const ApiGroup& g : groups) {
    std::vector<const ResultRow*> members;
    for (const Entry* e : g.All()) members.push_back(e->row);
    std::sort(members.begin(), members.end());  // table order: the rows are one array
    listed.insert(listed.end(), members.begin(), members.end());
  }
  std::vector<std::pair<Verdict, std::vector<std::string>>> verdicts;
  verdicts.reserve(listed.size());
  for (const ResultRow* r : listed) verdicts.emplace_back(r->result, r->err_messages);
  for (size_t i = 0; i < rows->size(); ++i) {
    (*rows)[i].result = verdicts[i].first;
    (*rows)[i].err_messages = std::move(verdicts[i].second);
  }
}

}  // namespace

void ApplyVerdicts(std::vector<ResultRow>* rows, CompareMode mode, ConsistentBackend consistent) {
  const size_t n = rows->size();
  std::vector<Entry> entries(n);
  // Groups are numbered in order of first appearance; each keeps its inputs then its outputs in
  // one slice of `slots`, laid out by counting, so a group costs no allocation of its own.
  struct Counts {
    size_t inputs = 0, outputs = 0;
  };
  std::vector<Counts> counts;
  std::vector<uint32_t> group(n);
  std::vector<bool> is_output(n);
  std::unordered_map<std::string_view, uint32_t> group_of;  // keys point into the rows
  group_of.reserve(n / 4);
  for (size_t i = 0; i < n; ++i) {
    ResultRow& row = (*rows)[i];
    row.result = Verdict::kPass;
    row.err_messages.clear();
    entries[i].row = &row;
    // An API's rows are usually adjacent: the previous row's group saves the lookup.
    if (i == 0 || row.api != (*rows)[i - 1].api) {
      const auto [it, added] = group_of.try_emplace(row.api, static_cast<uint32_t>(counts.size()));
      if (added) counts.emplace_back();
      group[i] = it->second;
    } else {
      group[i] = group[i - 1];
    }
    is_output[i] = row.target_name.find(".output.") != std::string::npos;
    ++(is_output[i] ? counts[group[i]].outputs : counts[group[i]].inputs);
  }
  std::vector<Entry*> slots(n);
  std::vector<ApiGroup> groups(counts.size());
  std::vector<size_t> next_input(counts.size()), next_output(counts.size());
  for (size_t g = 0, start = 0; g < counts.size(); ++g) {
    groups[g].inputs = Entries(slots.data() + start, counts[g].inputs);
    groups[g].outputs = Entries(slots.data() + start + counts[g].inputs, counts[g].outputs);
    next_input[g] = start;
    next_output[g] = start + counts[g].inputs;
    start += counts[g].inputs + counts[g].outputs;
  }
  for (size_t i = 0; i < n; ++i) slots[is_output[i] ? next_output[group[i]]++ : next_input[group[i]]++] = &entries[i];

  tbb::parallel_for(size_t{0}, groups.size(), [&](size_t i) {  // a group's rows are its own
    ApiGroup& g = groups[i];
    g.ignore = IgnoreOf(g);
    switch (mode) {
      case CompareMode::kTensor:
        if (consistent != ConsistentBackend::kNone) {
          for (auto* check : {InfNan, OneThousandth, Parameters, Dtype}) check(g);
          VerlShape(g, consistent);
          CosineWarn(g);
          break;
        }
        for (auto* check : {InfNan, OneThousandth, RequiresGrad, Parameters, Dtype, Shape, CosineWarn}) check(g);
        break;
      case CompareMode::kSummary:
        for (auto* check : {InfNan, RelativeErr, RequiresGrad, Parameters, Dtype, Shape, RelativeWarn}) check(g);
        break;
      case CompareMode::kMd5: Crc32(g); break;
    }
  });
  if (consistent != ConsistentBackend::kNone) WriteBackInGroupOrder(groups, rows);
}

}  // namespace msprobe::compare
