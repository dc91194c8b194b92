// dump.json and debug.json (formats.md §1, §3): the top-level keys and every tensor object inside
// `data`, with where it sits, what statistics were recorded and which file holds its data.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "msprobe/dump/formats/json_file.h"
#include "msprobe/dump/status.h"

namespace msprobe {

// A recorded statistic: absent (key missing), null, a number or a bool (bool tensors' Max/Min).
struct RecordedStat {
  enum class Kind : uint8_t { kAbsent, kNull, kNumber, kBool };
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

struct DumpJson {
  std::string path;
  std::string task, level, framework;  // framework defaults to "pytorch" when missing (as compare does)
  std::vector<TensorRecord> tensors;   // in file order
};

// Reads a dump.json or debug.json. Errors: unreadable file, invalid JSON, no "data" object.
Result<DumpJson> ReadDumpJson(const std::string& path);
// The same over an already parsed document (tests, fuzzing).
Result<DumpJson> ParseDumpJson(const JsonValue& root, const std::string& source);

}  // namespace msprobe
