// dump.json and debug.json (docs/formats.md §1, §3): the one reader of them, which streams the top-level
// keys and the entries of `data` to a visitor (compare's flattening, verify's records), and the
// records verify checks: every tensor object inside `data`, with where it sits, what statistics
// were recorded and which file holds its data.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/dump/text/json_file.h"
#include "msprobe/dump/util/status.h"

namespace msprobe {

// A recorded statistic: absent (key missing), null, a number, a bool (bool tensors' Max/Min), or
// something msprobe never writes there (a string, a list, an object).
struct RecordedStat {
  enum class Kind : uint8_t { kAbsent, kNull, kNumber, kBool, kOther };
  Kind kind = Kind::kAbsent;
  double number = 0;  // kNumber, and kBool as 1/0
};

struct TensorRecord {
  std::string entry;  // the data key, e.g. "Functional.linear.0.forward" or "x2.0.debug"
  std::string path;   // where inside the entry, e.g. "input_args.0", "output.0.1", "" for a bare value
  std::string type;   // "torch.Tensor", "mindspore.Tensor", "numpy.ndarray", ...
  std::string dtype;  // as recorded ("torch.float32", "Float32", "int32")
  std::vector<int64_t> shape;
  RecordedStat max, min, mean, norm;
  std::optional<std::string> md5;  // the "md5" summary as text (CRC "%08x" or xor "0x%016x"); numbers as repr
  std::optional<std::string> data_name;
};

// An entry of "data" is an object, unless its key is a debug.json name ("….debug") or a
// parameters_grad entry ("….parameters_grad.0", "….parameters_grad"), whose values may be lists or
// values (docs/compare.md §2.3). InvalidInput naming `source` and the key otherwise ("entry
// 'Functional.linear.0.forward' is not an object"): every reader refuses such a dump alike.
Status CheckEntryShape(std::string_view key, const JsonValue& value, const std::string& source);

// The top-level members of a dump.json or debug.json other than "data" (docs/formats.md §1.1), read as
// msprobe reads them: a repeated key keeps its last value.
struct DumpJsonHeader {
  std::string task;                   // str() of a truthy "task" (compare takes any type); "" otherwise
  std::string level;                  // the last string "level"
  std::string framework = "pytorch";  // the last string "framework"; compare assumes pytorch without one
  bool has_data = false;              // "data" is an object
};

// What a dump.json reader is told, in file order. Top-level members may come before or after
// "data" (docs/formats.md §1.1: readers must not depend on the order).
class DumpJsonVisitor {
 public:
  virtual ~DumpJsonVisitor() = default;
  // Each top-level member, after the reader has checked that it nests at most kMaxJsonDepth - 1
  // levels and before it goes into the header. A "data" object comes as an empty one: its entries
  // follow through Entry (the entries' depth is the visitor's to check).
  virtual Status Member(std::string_view /*key*/, const JsonValue& /*value*/) { return Status::Ok(); }
  // Once a "data" object opens, before its entries: the header of the members read so far.
  virtual Status Data(const DumpJsonHeader& /*header*/) { return Status::Ok(); }
  // Each entry of "data": its key and its value, dropped after the call.
  virtual Status Entry(std::string_view key, const JsonValue& value) = 0;
};

// Streams a dump.json or debug.json: top-level members one by one and the entries of "data" one
// by one, each parsed on its own, so memory stays at one entry however large the file. Returns the
// header of every top-level member. Errors: unreadable file, invalid JSON, a top level that is not
// an object, a member nested too deep, and whatever the visitor returns (the first one in file order).
// `parsing`: where the entries are parsed (StreamJsonObject).
Result<DumpJsonHeader> StreamDumpJson(const std::string& path, DumpJsonVisitor& visitor,
                                      EntryParsing parsing = EntryParsing::kInline);
// The header of the members before "data", read without going into the entries: what a reader
// can know of a dump before streaming it. Nullopt when the file fails before "data" opens or has
// no "data" object (StreamDumpJson then says why).
std::optional<DumpJsonHeader> HeaderBeforeData(const std::string& path);
// The same over text held in memory (tests, fuzzing); `source` names it in errors.
Result<DumpJsonHeader> StreamDumpJsonText(std::string_view text, const std::string& source,
                                          DumpJsonVisitor& visitor);
// The same over a parsed document (tests, fuzzing), the way json.load's dict is read: the whole
// header before the entries of the first "data" member.
Result<DumpJsonHeader> VisitDumpJson(const JsonValue& root, const std::string& source, DumpJsonVisitor& visitor);

// Where a dump's entries lie, for processes that share them (docs/distributed.md §3): the header
// of every top-level member, the header the entries are read with (the members before "data"), and
// each entry's key and bytes, found without parsing the entries (OutlineJsonObject).
struct DumpJsonOutline {
  DumpJsonHeader header, at_data;
  std::vector<JsonMemberSpan> entries;
};
Result<DumpJsonOutline> OutlineDumpJson(const std::string& path);
// Streams the entries at `spans`, from the outline of the same file, in the order given: the
// visitor's Data gets `at_data`, then Entry each one. Errors as StreamDumpJson's.
Status StreamDumpJsonEntries(const std::string& path, const DumpJsonHeader& at_data,
                             const std::vector<JsonMemberSpan>& spans, DumpJsonVisitor& visitor);

struct DumpJson {
  std::string path;
  std::string task, level, framework;  // as DumpJsonHeader
  std::vector<TensorRecord> tensors;   // in file order
  uint64_t entries = 0;                // of "data"
};

// The tensor records of one entry of "data", in the entry's order, appended to *out: what ReadDumpJson
// keeps of it, for a visitor that streams the file itself. Errors: a malformed tensor object, named
// with `source`.
Status CollectEntryTensors(std::string_view key, const JsonValue& entry, const std::string& source,
                           std::vector<TensorRecord>* out);

// Reads a dump.json or debug.json, streamed: memory holds its tensor records, not its document.
// Errors: unreadable file, invalid JSON, no "data" object, a malformed tensor object.
Result<DumpJson> ReadDumpJson(const std::string& path);
// The same over text held in memory and over an already parsed document (tests, fuzzing).
Result<DumpJson> ReadDumpJsonText(std::string_view text, const std::string& source);
Result<DumpJson> ParseDumpJson(const JsonValue& root, const std::string& source);

}  // namespace msprobe
