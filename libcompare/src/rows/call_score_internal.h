// --align (docs/compare.md §3.8): how alike two dumped calls are, from their rows. Rows correspond by
// their place in the call (.input.0 with .input.0, a kwarg or parameter by its name, .output.1 with
// .output.1) when msprobe's dtype rule lets them pair; the score weighs the op's name, the calls'
// shapes and how close the recorded values are.
#pragma once

#include <cstddef>
#include <string_view>
#include <utility>
#include <vector>

#include "msprobe/compare/table/op_row.h"

namespace msprobe::compare::internal {

// An entry's rows: [first, first + count) of its side's rows.
struct CallRows {
  size_t first = 0, count = 0;
};

// Whether a row's dtype is a tensor's ("torch.float32", "BFloat16"), not a scalar's, None's or a size's.
bool IsTensorDtype(std::string_view dtype);
// The kind of number a dtype holds, as msprobe's cross-framework classes have it ("float", "int",
// "bool", "complex"), whatever the framework and width; other dtypes as they are.
std::string_view DtypeClass(std::string_view dtype);

// What a row adds to its entry's key (".input.0"): its place in the call.
std::string_view PlaceInCall(const OpRow& row);

// The corresponding rows of two calls, as (target row, golden row) in target row order: the same place, and
// dtypes DtypesCompatible allows. Each row is in one pair at most.
std::vector<std::pair<size_t, size_t>> PairCallRows(const std::vector<OpRow>& target, CallRows a,
                                                    const std::vector<OpRow>& golden, CallRows b, bool cross_framework);

// The score of a call pair, in [0, 1]: 0.2 for the same op (OpIdentity), 0.2 times the share of rows
// that correspond with equal shapes, 0.6 times how close their values are (recorded statistics, md5,
// scalar values), each row weighed by how much it tells, against what the two calls hold.
// `md5`: the rows' md5 sums were recorded (an md5 dump), not computed from a scalar's value.
float CallScore(const std::vector<OpRow>& target, CallRows a, const std::vector<OpRow>& golden, CallRows b,
                bool same_op, bool cross_framework, bool md5);

// How close two rows' recorded values are, in [0, 1], and how much that tells (0: nothing to tell,
// as for None rows; 1: a tensor whose values vary).
struct ValueCloseness {
  float closeness = 0, weight = 0;
};
ValueCloseness CompareValues(const OpRow& target, const OpRow& golden, bool md5);
// How much a row's values can tell (ValueCloseness::weight of the row against itself).
float ValueWeight(const OpRow& row, bool md5);

}  // namespace msprobe::compare::internal
