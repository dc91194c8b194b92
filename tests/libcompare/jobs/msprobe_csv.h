// Our result csv against one msprobe wrote: cell by cell, texts equal, numbers equal up to a relative
// tolerance per column (EucDist's summation order differs from numpy's, docs/compare.md §4.2).
#pragma once

#include <string>
#include <vector>

namespace msprobe::compare::msprobe_csv {

using Table = std::vector<std::vector<std::string>>;

// RFC 4180 fields; a quoted field may hold newlines.
Table ReadCsv(const std::string& path);

// Every cell of `ours` equals the one of `theirs`, numbers within `rtol` relative (EucDist within
// 1e-12), as gtest expectations naming row and column.
void ExpectSameCsv(const std::string& ours, const std::string& theirs, double rtol = 0);

}  // namespace msprobe::compare::msprobe_csv
