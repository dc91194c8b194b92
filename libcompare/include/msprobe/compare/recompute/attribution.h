// msprobe-compare --attribute (docs/ops.md §7): for every API of a tensor compare, in execution order,
// where its difference comes from —
//   op         its own error: the target's self error beyond tolerance and well beyond the golden's;
//   input      an input already differs and is not an earlier API's output (a parameter, the data, a
//              buffer): the difference enters here from outside the ops;
//   inherited  every differing input is an earlier API's output (same content hash);
//   clean      no input differs and the op is within tolerance;
//   unknown    no input differs and the op has no reference.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "msprobe/compare/output/compare_report.h"
#include "msprobe/compare/table/result_table.h"
#include "msprobe/dump/util/status.h"

namespace msprobe::compare {

// The target's self error counts as the op's own when it exceeds the tolerance and this many times
// the golden's (both in units of their tolerance).
inline constexpr double kOwnErrorMargin = 4;

// Whether attribution looks at a row's target tensor by its content: an input or output with a file.
bool NeedsTargetHash(const ResultRow& row);
// That content's hash (files/content_hash.h), read from the row's file in `target_tensor_dir`;
// nullopt when the file is missing or unreadable. For the rows the tensor compare did not hash.
std::optional<uint64_t> HashTargetFile(const std::string& target_tensor_dir, const ResultRow& row);

// Fills table->attributions, every row's attribution and table->first_cause_row, recomputing the
// APIs of both dumps (tensor mode: the table's rows carry their Data_name; a dump on both sides is
// recomputed once). `target_hashes`: per row, its target tensor's content hash where NeedsTargetHash
// (nullopt: unreadable), taken by the tensor compare. Returns the first API whose origin is op or input.
Result<std::optional<FirstCause>> AttributeRows(const std::string& target_json, const std::string& golden_json,
                                                const std::vector<std::optional<uint64_t>>& target_hashes,
                                                ResultTable* table);

// A statistics or md5 compare has no tensors to recompute: every API's origin is unknown.
void AttributeUnknown(ResultTable* table);

}  // namespace msprobe::compare
