// A small unpickler for pickle protocol 0–2, enough for torch.save's data.pkl (docs/formats.md §6.3).
// It never imports or calls anything: GLOBAL, REDUCE, BUILD and persistent ids become nodes of a value
// tree that the caller interprets. Values live in one arena and refer to each other by index, so
// shared and even self-referencing values (memo, APPEND of a list to itself) cost nothing and free
// cleanly. Depth and count limits keep a hostile pickle from exhausting memory.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/dump/io/byte_cursor.h"
#include "msprobe/dump/util/status.h"

namespace msprobe {

enum class PickleKind : uint8_t {
  kNone, kBool, kInt, kFloat, kString,
  kTuple, kList, kDict,
  kGlobal,        // module in `text`, name in `name`
  kPersistentId,  // items = {pid}
  kReduce,        // items = {callable, args}
  kBuild,         // items = {object, state}
};

using PickleRef = uint32_t;

struct PickleValue {
  PickleKind kind = PickleKind::kNone;
  bool boolean = false;
  int64_t integer = 0;
  double real = 0;
  std::string text;              // kString: the (UTF-8) bytes; kGlobal: the module
  std::string name;              // kGlobal: the attribute name
  std::vector<PickleRef> items;  // tuple/list elements; dict: key, value, key, value...; see PickleKind
};

struct PickleLimits {
  uint32_t max_depth = 64;          // nesting of values, and MARKs open at once
  uint64_t max_values = 1u << 18;   // values created
};

class PickleTree {
 public:
  PickleRef root() const { return root_; }
  const PickleValue& at(PickleRef ref) const { return values_[ref]; }
  size_t size() const { return values_.size(); }
  // Offset just past the STOP opcode (a legacy .pt holds several pickles back to back).
  uint64_t end_offset() const { return end_offset_; }

  // True when `ref` is GLOBAL `module name`.
  bool IsGlobal(PickleRef ref, std::string_view module, std::string_view name) const;
  // A short phrase for messages: "dict of 2 entries", "int 5", "call to torch._utils._rebuild_parameter".
  std::string Describe(PickleRef ref) const;

 private:
  friend class PickleMachine;
  std::string Describe(PickleRef ref, int depth) const;
  std::vector<PickleValue> values_;
  PickleRef root_ = 0;
  uint64_t end_offset_ = 0;
};

// Runs the pickle at the start of `bytes` up to its STOP. `source` names the file in messages; every
// error names the opcode and its offset.
Result<PickleTree> Unpickle(Bytes bytes, const std::string& source, const PickleLimits& limits = {});

}  // namespace msprobe
