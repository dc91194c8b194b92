// Flattens a dump.json or debug.json into OpRows the way msprobe G3 does (docs/compare.md §2.1-§2.5):
// the compare mode from the task, one row per tensor/scalar/None argument of every API or module
// entry, the key parts that backward renumbering needs, and the stack of each entry's first row.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "msprobe/compare/rows/scratch_rows.h"
#include "msprobe/compare/table/op_row.h"
#include "msprobe/dump/framework/dump_json.h"
#include "msprobe/dump/text/json_file.h"
#include "msprobe/dump/util/status.h"

namespace msprobe::compare {

struct FlatDump {
  std::string json_path, task, level, framework;  // framework defaults to "pytorch"
  bool is_debug = false;                          // a debug.json: keys are names, not API calls
  CompareMode mode = CompareMode::kSummary;
  std::vector<OpRow> rows;                        // msprobe's row order
  std::vector<ScratchEntry> scratch_entries;      // the entries with MoE scratch rows, in file order
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

// How many entries of the same op (KeyParts::op_no_number) came before an entry, forward and
// backward: its rows' call orders (OpRow::forward_call_order, backward_call_order).
struct CallOrder {
  int forward = 0, backward = 0;
};
// Numbers a dump's entries, given in file order.
class CallCounter {
 public:
  CallOrder Next(const KeyParts& parts);

 private:
  std::unordered_map<std::string, std::pair<int, int>> counts_;  // op_no_number → forward, backward so far
};

// Whether compare reads this file as a debug.json (keys are names): by its name, as msprobe decides,
// or, ours, a `level` of "debug" unless it is named dump.json.
bool ReadsAsDebugJson(const std::string& json_path, std::string_view level);

// str.replace(api, ''): what a row's name adds to its API key (".input.0"), all of it when the name
// came from a data_name of another call.
std::string NameSuffix(const OpRow& row);

// stack_json: the stack.json next to the target json, or "" (then no row carries stack info).
// Errors (InvalidInput naming the file): unreadable or malformed JSON, no or empty task, `data`
// not an object, a task that compare cannot use ("structure", "nan_check", ...), an entry that
// is not an object, nesting deeper than msprobe's limit of 400, a stack that is not a list.
// `storage` lends its capacity to the rows (a finished pair's vector: no new pages to fault in).
// `keep` (optional) is asked about every entry key in file order; an entry it refuses gives no rows
// and takes no call order (msprobe's --consistent_check parse rules).
using EntryFilter = std::function<bool(std::string_view key)>;
Result<FlatDump> FlattenDump(const std::string& json_path, const std::string& stack_json,
                             std::vector<OpRow> storage = {}, EntryFilter keep = {});

// Receives a streamed dump's rows, whole entries at a time in msprobe's row order, with the dump's
// header as read when "data" opened (its mode is not known until the end). It may take the rows.
using FlatRowSink = std::function<Status(const FlatDump& header, std::vector<OpRow>* rows)>;
// FlattenDump in batches of about `batch_rows` rows: memory holds one batch, not the dump. Returns
// the dump as FlattenDump does, without its rows, after the last batch.
Result<FlatDump> StreamFlatDump(const std::string& json_path, const std::string& stack_json, size_t batch_rows,
                                const FlatRowSink& sink, std::vector<OpRow> storage = {});

// The call orders of a dump's entries from their keys alone (its outline, OutlineDumpJson), as
// FlattenDump numbers them.
std::vector<CallOrder> EntryCallOrders(const std::vector<JsonMemberSpan>& entries, bool is_debug);
// StreamFlatDump over some entries of a dump only (docs/distributed.md §3.1): `entries` from its
// outline, in file order, each with its call order in `orders`, read with the header `at_data`.
// `has_md5`: whether one of them holds md5 summaries.
Status StreamFlatEntries(const std::string& json_path, const std::string& stack_json, const DumpJsonHeader& at_data,
                         const std::vector<JsonMemberSpan>& entries, const std::vector<CallOrder>& orders,
                         size_t batch_rows, const FlatRowSink& sink, bool* has_md5);

// StreamFlatDump with the parsing on a thread of its own, one batch ahead of `sink`, which runs on
// the caller's thread: the parse and the work on its rows overlap.
Result<FlatDump> StreamFlatDumpAhead(const std::string& json_path, const std::string& stack_json, size_t batch_rows,
                                     const FlatRowSink& sink);

// The same over parsed documents (tests, fuzzing); stack may be null. `source` names the file in
// errors, and a source whose file name is "debug.json" is read as a debug.json (as msprobe
// decides from the file name); so is one with level "debug" unless it is named "dump.json".
Result<FlatDump> FlattenDocument(const JsonValue& root, const JsonValue* stack, const std::string& source);

}  // namespace msprobe::compare
