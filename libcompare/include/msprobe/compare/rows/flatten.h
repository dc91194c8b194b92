// Flattens a dump.json or debug.json into OpRows the way msprobe G3 does (docs/compare.md §2.1-§2.5):
// the compare mode from the task, one row per tensor/scalar/None argument of every API or module
// entry, the key parts that backward renumbering needs, and the stack of each entry's first row.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/compare/rows/op_row.h"
#include "msprobe/dump/text/json_file.h"
#include "msprobe/dump/status.h"

namespace msprobe::compare {

struct FlatDump {
  std::string json_path, task, level, framework;  // framework defaults to "pytorch"
  bool is_debug = false;                          // a debug.json: keys are names, not API calls
  CompareMode mode = CompareMode::kSummary;
  std::vector<OpRow> rows;                        // msprobe's row order
};

// The parts of an API key that numbering and matching use (split_data_name_components, docs/compare.md
// §2.2): `direction` is "forward", "backward", "parameters_grad" or, in a debug.json, the key
// itself; `call_direction` e.g. "0.forward" or "forward.0"; `op_no_number` the key before them.
// An empty op_no_number: the key is none of these, and its entry gives no rows.
struct KeyParts {
  std::string op_no_number, call_direction, direction;
};
KeyParts SplitKey(std::string_view key, bool is_debug);
// Whether one of the key's last two components is "backward": only then can SplitKey call a
// dump.json key backward. A cheap test for the rows that need no SplitKey.
bool MayBeBackwardKey(std::string_view key);

// str.replace(api, ''): what a row's name adds to its API key (".input.0"), all of it when the name
// came from a data_name of another call.
std::string NameSuffix(const OpRow& row);

// stack_json: the stack.json next to the NPU json, or "" (then no row carries stack info).
// Errors (InvalidInput naming the file): unreadable or malformed JSON, no or empty task, `data`
// not an object, a task that compare cannot use ("structure", "nan_check", ...), an entry that
// is not an object, nesting deeper than msprobe's limit of 400, a stack that is not a list.
// `storage` lends its capacity to the rows (a finished pair's vector: no new pages to fault in).
Result<FlatDump> FlattenDump(const std::string& json_path, const std::string& stack_json,
                             std::vector<OpRow> storage = {});

// Receives a streamed dump's rows, whole entries at a time in msprobe's row order, with the dump's
// header as read when "data" opened (its mode is not known until the end). It may take the rows.
using FlatRowSink = std::function<Status(const FlatDump& header, std::vector<OpRow>* rows)>;
// FlattenDump in batches of about `batch_rows` rows: memory holds one batch, not the dump. Returns
// the dump as FlattenDump does, without its rows, after the last batch.
Result<FlatDump> StreamFlatDump(const std::string& json_path, const std::string& stack_json, size_t batch_rows,
                                const FlatRowSink& sink, std::vector<OpRow> storage = {});

// StreamFlatDump with the parsing on a thread of its own, one batch ahead of `sink`, which runs on
// the caller's thread: the parse and the work on its rows overlap.
Result<FlatDump> StreamFlatDumpAhead(const std::string& json_path, const std::string& stack_json, size_t batch_rows,
                                     const FlatRowSink& sink);

// The same over parsed documents (tests, fuzzing); stack may be null. `source` names the file in
// errors, and a source whose file name is "debug.json" is read as a debug.json (as msprobe
// decides from the file name); so is one with level "debug" unless it is named "dump.json".
Result<FlatDump> FlattenDocument(const JsonValue& root, const JsonValue* stack, const std::string& source);

}  // namespace msprobe::compare
