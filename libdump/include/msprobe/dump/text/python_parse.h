// How Python reads back the texts msprobe works on: float(s), int(s), and the str() of a list of str
// (the stack text). How Python prints them is python_format.h; pandas' reading pandas_numeric.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace msprobe {

// float(s): ASCII blanks around, an optional sign, then inf, infinity or nan in any case, or a
// decimal literal with single '_' between digits ("1_000.5", "1e1_0"); too large is ±inf.
// nullopt where Python raises ValueError. Python also strips Unicode blanks (U+00A0, …); not here.
std::optional<double> PythonFloat(std::string_view s);
// int(s): ASCII blanks around, an optional sign, decimal digits with single '_' between them.
// nullopt where Python raises ValueError, and past int64 (where Python's int grows).
std::optional<int64_t> PythonInt(std::string_view s);
// The list of str whose str() is `text` (['a', "b'c"], with \n, \\, \x, \u, \U escapes), as
// ast.literal_eval gives it back; nullopt for any other text, even one literal_eval would take.
std::optional<std::vector<std::string>> ParsePythonStrList(std::string_view text);

}  // namespace msprobe
