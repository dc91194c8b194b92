#include "msprobe/compare/metrics/stats_diff.h"

#include <bit>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>

#include "msprobe/dump/text/pandas_numeric.h"
#include "msprobe/dump/text/python_format.h"

namespace msprobe::compare {
namespace {

// The value classes of CalcStatsDiff.classify, first match wins (docs/compare.md §4.3).
enum class ValType : uint8_t { kNum, kNan, kInf, kNegInf, kDevice, kNa, kOther };

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The number pandas makes of str(value) (msprobe's get_number); NaN when it is not one.
double NumberOf(const Cell& c) { return PandasToNumeric(c.ToPython()).value_or(NAN); }

// pd.to_numeric on the raw value, for the NUM class: numbers are numbers, bools are not
// ("True"/"False" are excluded from NUM), strings are parsed.
bool IsNumber(const Cell& c) {
  switch (c.kind()) {
    case Cell::Kind::kFloat:
    case Cell::Kind::kInt: return true;
    case Cell::Kind::kBool: return false;
    case Cell::Kind::kText: return PandasToNumeric(c.text()).has_value();
  }
  return false;
}

ValType Classify(const Cell& c) {
  if (c.kind() == Cell::Kind::kFloat) {
    const double v = c.number();
    if (std::isnan(v)) return ValType::kNan;
    if (std::isinf(v)) return v > 0 ? ValType::kInf : ValType::kNegInf;
    return ValType::kNum;
  }
  const std::string s = Lower(c.ToPython());
  if (s == "nan") return ValType::kNan;
  if (s == "inf") return ValType::kInf;
  if (s == "-inf") return ValType::kNegInf;
  if (s != "true" && s != "false" && IsNumber(c)) return ValType::kNum;
  if (s.find("npu") != std::string::npos || s.find("cpu") != std::string::npos ||
      s.find("cuda") != std::string::npos) {
    return ValType::kDevice;
  }
  if (c.IsText("N/A")) return ValType::kNa;
  return ValType::kOther;
}

// The string both columns get for an unequal, non-NUM x NUM pair (the §4.3 rule table).
const char* RuleText(ValType n, ValType b) {
  using V = ValType;
  if (n == V::kNa || b == V::kNa) return "N/A";
  if (n == V::kDevice && b == V::kDevice) return "N/A";
  if (n == V::kDevice || b == V::kDevice || n == V::kOther || b == V::kOther) return "Diff";
  if (n == V::kNan || b == V::kNan) return "Nan";
  // Left: INF/NEG_INF against NUM or the opposite infinity; right: NUM against an infinity.
  if (n == V::kInf && (b == V::kNum || b == V::kNegInf)) return "inf";
  if (n == V::kNegInf && (b == V::kNum || b == V::kInf)) return "-inf";
  if (n == V::kNum && b == V::kInf) return "-inf";
  if (n == V::kNum && b == V::kNegInf) return "inf";
  return "N/A";  // INF x INF, NEG_INF x NEG_INF with unequal spellings: msprobe's default rule
}

// Two numbers' difference and relative error (percent text, "inf" against a zero golden).
void NumericDiff(double target, double golden, Cell* diff, Cell* rel) {
  const double d = target - golden;
  *diff = Cell::Float(d);
  if (golden == 0) {
    *rel = Cell::Text("inf");
    return;
  }
  char pct[49];
  const size_t n = AppendPythonFloatRepr(pct, std::fabs(d / golden * 100));
  pct[n] = '%';
  *rel = Cell::Text(std::string(pct, n + 1));
}

// Both values finite floats, the common case, without a heap string: equal bits are equal repr()s
// (the shortest digits that read back), and each repr() is read back without its text.
bool DiffFinitePair(const Cell& target, const Cell& golden, Cell* diff, Cell* rel) {
  if (target.kind() != Cell::Kind::kFloat || golden.kind() != Cell::Kind::kFloat || !std::isfinite(target.number()) ||
      !std::isfinite(golden.number())) {
    return false;
  }
  const double t = target.number(), g = golden.number();
  if (std::bit_cast<uint64_t>(t) == std::bit_cast<uint64_t>(g)) {
    *diff = *rel = Cell::Text("0");
    return true;
  }
  const std::optional<double> nv = PandasToNumericOfRepr(t), bv = PandasToNumericOfRepr(g);
  if (!nv || !bv) return false;
  NumericDiff(*nv, *bv, diff, rel);
  return true;
}

void DiffPair(const Cell& target, const Cell& golden, Cell* diff, Cell* rel) {
  if (DiffFinitePair(target, golden, diff, rel)) return;
  if (target.ToPython() == golden.ToPython()) {
    *diff = *rel = Cell::Text("0");
    return;
  }
  const ValType n = Classify(target), b = Classify(golden);
  if (n == ValType::kNum && b == ValType::kNum) {
    NumericDiff(NumberOf(target), NumberOf(golden), diff, rel);
    return;
  }
  *diff = *rel = Cell::Text(RuleText(n, b));
}

}  // namespace

bool IsUnmatched(const ResultRow& row) {
  return row.golden_name.empty() || std::string_view(row.golden_name) == "N/A";  // sizes first: no memcmp call
}

void FillStatsDiff(ResultRow* row) {
  row->metrics.assign(8, Cell());  // DiffPair sets every one
  for (int i = 0; i < 4; ++i) {
    DiffPair(row->target_stats[i], row->golden_stats[i], &row->metrics[kMaxDiff + i], &row->metrics[kMaxRel + i]);
  }
}

void FillMd5(ResultRow* row, const std::string& target_md5, const std::string& golden_md5) {
  row->metrics = {Cell::Text(target_md5), IsUnmatched(*row) ? Cell::NA() : Cell::Text(golden_md5)};
}

}  // namespace msprobe::compare
