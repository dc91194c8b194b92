// How pandas 1.5 reads a number from a string (pd.to_numeric), which msprobe's statistics diffs go
// through (docs/compare.md §4.3). How Python itself reads one is python_parse.h.
#pragma once

#include <optional>
#include <string_view>

namespace msprobe {

// pd.to_numeric(pd.Series([s]))[0]. pandas parses with its own precise_xstrtod, which is NOT
// correctly rounded: it keeps at most 17 significant digits (leading zeros count), accumulates them
// in a double and scales by a power of ten, so "-0.024286686951704883" gives -0.0242866869517048
// where float() gives -0.024286686951704883; msprobe's diffs carry that rounding. Blanks around are
// skipped; inf and infinity in any case, signed or not, are infinities. nullopt where pandas raises
// (no digits, trailing text, an exponent past 308, "nan") and for "", which pandas makes NaN.
std::optional<double> PandasToNumeric(std::string_view s);

// PandasToNumeric(PythonFloatRepr(v)), read from v's shortest digits without writing and scanning
// the text: a statistics diff reads back two values per pair of statistics.
std::optional<double> PandasToNumericOfRepr(double v);

}  // namespace msprobe
