#include "msprobe/compare/metrics/stats_diff.h"

#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string_view>

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

bool IsSpace(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// 1e0 .. 1e308, each the correctly rounded double, like the literal table pandas uses.
const std::array<double, 309>& PowersOfTen() {
  static const std::array<double, 309> table = [] {
    std::array<double, 309> t{};
    for (int i = 0; i < 309; ++i) t[i] = std::strtod(("1e" + std::to_string(i)).c_str(), nullptr);
    return t;
  }();
  return table;
}

// pd.to_numeric of one string, which msprobe applies to str(value) (docs/compare.md §4.3). pandas 1.5
// parses with its own precise_xstrtod, which is NOT correctly rounded: it keeps at most 17
// significant digits (leading zeros count), accumulates them in a double and scales by a power of
// ten. msprobe's diffs carry that rounding (e.g. -6.929039955083649e-06 where exact float64
// arithmetic gives -6.92903995513916e-06), so we reproduce the algorithm. nullopt: not a number.
std::optional<double> PandasToNumeric(std::string_view s) {
  constexpr int kMaxDigits = 17;
  size_t i = 0;
  const size_t n = s.size();
  while (i < n && IsSpace(s[i])) ++i;
  bool negative = false;
  if (i < n && (s[i] == '-' || s[i] == '+')) negative = s[i++] == '-';
  double number = 0;
  int exponent = 0, num_digits = 0;
  for (; i < n && IsDigit(s[i]); ++i) {
    if (num_digits < kMaxDigits) {
      number = number * 10. + (s[i] - '0');
      ++num_digits;
    } else {
      ++exponent;
    }
  }
  bool ok = true;
  if (i < n && s[i] == '.') {
    ++i;
    int num_decimals = 0;
    for (; num_digits < kMaxDigits && i < n && IsDigit(s[i]); ++i, ++num_digits, ++num_decimals) {
      number = number * 10. + (s[i] - '0');
    }
    while (i < n && IsDigit(s[i])) ++i;  // digits past the 17th are dropped
    exponent -= num_decimals;
  }
  if (num_digits == 0) ok = false;
  if (negative) number = -number;
  if (ok && i < n && (s[i] == 'e' || s[i] == 'E')) {
    const size_t e_pos = i++;
    bool exp_negative = false;
    if (i < n && (s[i] == '-' || s[i] == '+')) exp_negative = s[i++] == '-';
    int value = 0, exp_digits = 0;
    for (; exp_digits < kMaxDigits && i < n && IsDigit(s[i]); ++i, ++exp_digits) value = value * 10 + (s[i] - '0');
    exponent += exp_negative ? -value : value;
    if (exp_digits == 0) i = e_pos;  // a bare 'e' is not consumed, so the parse fails below
  }
  if (ok) {
    const auto& p10 = PowersOfTen();
    if (exponent > 308) {
      ok = false;
    } else if (exponent > 0) {
      number *= p10[exponent];
    } else if (exponent < -616) {
      number = 0;
    } else if (exponent < -308) {
      number /= p10[-308 - exponent];
      number /= p10[308];
    } else {
      number /= p10[-exponent];
    }
    if (std::isinf(number)) ok = false;
    while (i < n && IsSpace(s[i])) ++i;
    if (ok && i == n) return number;
  }
  // pandas' fallback spellings of infinity, matched on the whole string.
  const std::string lower = Lower(s);
  if (lower == "inf" || lower == "+inf" || lower == "infinity" || lower == "+infinity") return HUGE_VAL;
  if (lower == "-inf" || lower == "-infinity") return -HUGE_VAL;
  return std::nullopt;
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

// Two numbers' difference and relative error (percent text, "inf" against a zero bench).
void NumericDiff(double npu, double bench, Cell* diff, Cell* rel) {
  const double d = npu - bench;
  *diff = Cell::Float(d);
  if (bench == 0) {
    *rel = Cell::Text("inf");
    return;
  }
  char pct[49];
  const size_t n = AppendPythonFloatRepr(pct, std::fabs(d / bench * 100));
  pct[n] = '%';
  *rel = Cell::Text(std::string(pct, n + 1));
}

// Both values finite floats, the common case, without a heap string: their repr()s are compared
// and parsed in stack buffers.
bool DiffFinitePair(const Cell& npu, const Cell& bench, Cell* diff, Cell* rel) {
  if (npu.kind() != Cell::Kind::kFloat || bench.kind() != Cell::Kind::kFloat || !std::isfinite(npu.number()) ||
      !std::isfinite(bench.number())) {
    return false;
  }
  char n_repr[48], b_repr[48];
  const std::string_view n_text(n_repr, AppendPythonFloatRepr(n_repr, npu.number()));
  const std::string_view b_text(b_repr, AppendPythonFloatRepr(b_repr, bench.number()));
  if (n_text == b_text) {
    *diff = *rel = Cell::Text("0");
    return true;
  }
  const std::optional<double> nv = PandasToNumeric(n_text), bv = PandasToNumeric(b_text);
  if (!nv || !bv) return false;
  NumericDiff(*nv, *bv, diff, rel);
  return true;
}

void DiffPair(const Cell& npu, const Cell& bench, Cell* diff, Cell* rel) {
  if (DiffFinitePair(npu, bench, diff, rel)) return;
  if (npu.ToPython() == bench.ToPython()) {
    *diff = *rel = Cell::Text("0");
    return;
  }
  const ValType n = Classify(npu), b = Classify(bench);
  if (n == ValType::kNum && b == ValType::kNum) {
    NumericDiff(NumberOf(npu), NumberOf(bench), diff, rel);
    return;
  }
  *diff = *rel = Cell::Text(RuleText(n, b));
}

}  // namespace

bool IsUnmatched(const ResultRow& row) {
  return row.bench_name.empty() || std::string_view(row.bench_name) == "N/A";  // sizes first: no memcmp call
}

void FillStatsDiff(ResultRow* row) {
  row->metrics.assign(8, Cell());  // DiffPair sets every one
  for (int i = 0; i < 4; ++i) {
    DiffPair(row->npu_stats[i], row->bench_stats[i], &row->metrics[kMaxDiff + i], &row->metrics[kMaxRel + i]);
  }
}

void FillMd5(ResultRow* row, const std::string& npu_md5, const std::string& bench_md5) {
  row->metrics = {Cell::Text(npu_md5), IsUnmatched(*row) ? Cell::NA() : Cell::Text(bench_md5)};
}

}  // namespace msprobe::compare
