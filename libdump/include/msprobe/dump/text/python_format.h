// How Python prints the values msprobe's outputs are made of: repr() and str() of floats, bools,
// strings, lists, tuples and sets, of what json.load makes and of its type, numpy's shapes; and the
// Python rules printing leans on (truthiness, round, str.replace). Reading such texts back is
// python_parse.h; json.dump and json.dumps are python_json.h; pandas' numbers pandas_numeric.h.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/dump/text/json_file.h"

namespace msprobe {

// repr(x) of a float: shortest round-trip digits; fixed notation for 1e-4 <= |x| < 1e16, else "1e-05",
// "1.5e+16"; integral values keep ".0"; "inf", "-inf", "nan".
std::string PythonFloatRepr(double v);
// The same written to `out` (at least 32 bytes); returns its length. For writers' hot loops.
size_t AppendPythonFloatRepr(char* out, double v);
// The digits repr(v) writes for a finite, nonzero v: `significand` (no trailing zeros, `count`
// digits) times 10^`exponent`, of |v|, whose first digit stands for 10^`exp10`; `positional` when
// they are written without an exponent.
struct PythonReprDigits {
  uint64_t significand;
  int exponent, count, exp10;
  bool positional;
};
PythonReprDigits ReprDigitsOf(double v);
// Whether repr() and printf's "%.16G" write digits whose first stands for 10^exp10 without an exponent.
constexpr bool WrittenPositional(int exp10) { return exp10 >= -4 && exp10 < 16; }
// Decimal digits laid out as repr() and printf's "%G" lay them out: `significand` (no trailing zeros)
// whose first digit stands for 10^`exp10`, positional for -4 <= exp10 < 16 ("0.000123", "1234.5";
// an integral value followed by `integral_suffix`, ".0" for repr and "" for "%G"), else "1.5e+16"
// with `exponent_mark` and two exponent digits at least. No sign. Writes to `out` (at least 24
// bytes) and returns the end.
char* WriteDecimalDigits(char* out, uint64_t significand, int exp10, char exponent_mark,
                         std::string_view integral_suffix);
// str(b): "True", "False".
constexpr std::string_view PythonBoolStr(bool b) { return b ? "True" : "False"; }
// repr(s) of a str: single quotes unless s holds ' and no "; \\, \n, \r, \t and \xNN escapes. UTF-8
// bytes are kept as they are (Python also escapes non-printable code points past ASCII, as \xa0).
std::string PythonStrRepr(std::string_view s);
// str(v) of the object json.load made of `v`: None, True, 1.5, text (quoted inside containers
// only), [1, None], {'a': 1}.
std::string PythonStr(const JsonValue& v);
// str(type(v)) of the object json.load made of `v`: "<class 'int'>"; nullptr is None.
std::string PythonTypeStr(const JsonValue* v);
// bool(v) of the object json.load made of `v`: false for None, False, 0, "", [] and {}; NaN is true.
bool PythonTruthy(const JsonValue& v);
// str(items) of a list of str: ['a', "it's"].
std::string PythonListOfStrings(const std::vector<std::string>& items);
// repr(s) of a set of str, its items in the given order (Python's own order follows hashes):
// {'Cosine', 'EucDist'}, or set() when empty.
std::string PythonSetOfStrings(const std::vector<std::string>& items);
// repr(tuple(ints)): "()", "(5,)", "(2, 3)".
std::string PythonIntTuple(std::span<const int64_t> ints);
// str(np.shape(np.array(v))) of the object json.load made of `v`: "(3,)", "(2, 2)", "()" for a
// scalar or nullptr; a ragged level ends the shape there ([[1, 2], [3]] is "(2,)").
std::string NumpyShapeStr(const JsonValue* v);
// float("%.12f" % x): rounds to 12 decimals through a decimal string, as msprobe's metrics do.
double RoundTo12Decimals(double x);
// round(x, ndigits) (round-half-even on the exact binary value).
double PythonRound(double x, int ndigits);
// s.split(sep) with one separator character: every piece, empty ones included ("a..b" → a, "", b).
std::vector<std::string_view> PythonSplit(std::string_view s, char sep);

// s.replace(old, new[, count]): at most `count` replacements (all when count < 0), left to right; an
// empty `old` matches before every character and at the end.
std::string PythonReplace(std::string_view s, std::string_view old, std::string_view replacement,
                          int count = -1);

}  // namespace msprobe
