// Python's renderings that msprobe's outputs are made of: repr(float), str() of JSON values
// (lists, None, True), json.dumps of a string list, and "%.12f"-style rounding.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "msprobe/dump/text/json_file.h"

namespace msprobe {

// repr(float): shortest round-trip digits; fixed notation for 1e-4 <= |x| < 1e16, else "1e-05",
// "1.5e+16"; integral values keep ".0"; "inf", "-inf", "nan".
std::string PythonFloatRepr(double v);
// The same written to `out` (at least 32 bytes); returns its length. For writers' hot loops.
size_t AppendPythonFloatRepr(char* out, double v);
// str() of a parsed JSON value as Python would print the object json.load made: None, True,
// 1.5, 'text' (quoted inside containers only), [1, None], {'a': 1}.
std::string PythonStr(const JsonValue& v);
// json.dumps(list_of_str) with ensure_ascii: ["a", "b"].
std::string JsonDumpsStrings(const std::vector<std::string>& items);
// str(list_of_str): ['a', 'b'] with Python's quoting choice per item.
std::string PythonListOfStrings(const std::vector<std::string>& items);
// float("%.12f" % x): rounds to 12 decimals through a decimal string, as msprobe's metrics do.
double RoundTo12Decimals(double x);
// Python round(x, n) (round-half-even on the exact binary value).
double PythonRound(double x, int ndigits);
// str.replace(old, new[, count]): at most `count` replacements (all when count < 0), left to
// right; an empty `old` matches before every character and at the end, as in Python.
std::string PythonReplace(std::string_view s, std::string_view old, std::string_view replacement,
                          int count = -1);

}  // namespace msprobe
