// msprobe-dump stats: one line (or one JSON object) per tensor file.
#include <fmt/format.h>
#include <rapidjson/ostreamwrapper.h>
#include <rapidjson/writer.h>

#include <cmath>
#include <iostream>

#include "common/exit_codes.h"
#include "msprobe/dump/formats/python_format.h"
#include "msprobe/dump/tensor/tensor_file.h"
#include "msprobe/dump/tensor/tensor_source.h"
#include "msprobe/dump/tensor/tensor_stats.h"
#include "msprobe_dump/commands.h"

namespace msprobe::dump_app {
namespace {

// Strict JSON: a non-finite statistic is written as Python's repr text ("nan", "inf", "-inf"), as
// msprobe-compare --json writes them, since JSON has no token for it.
using JsonWriter = rapidjson::Writer<rapidjson::OStreamWrapper>;

void WriteJson(JsonWriter& w, const std::string& file, const TensorInfo& info, const TensorStats& s, bool crc) {
  w.StartObject();
  w.Key("file"); w.String(file);
  w.Key("dtype"); w.String(std::string(Name(info.dtype)));
  w.Key("shape"); w.StartArray();
  for (int64_t d : info.shape) w.Int64(d);
  w.EndArray();
  const auto number = [&](const char* key, double v) {
    w.Key(key);
    if (!s.has_values) w.Null();
    else if (std::isfinite(v)) w.Double(v);
    else w.String(PythonFloatRepr(v));
  };
  number("max", s.max);
  number("min", s.min);
  number("mean", s.mean);
  number("norm", s.norm);
  w.Key("nan"); w.Uint64(s.nan_count);
  w.Key("pos_inf"); w.Uint64(s.pos_inf_count);
  w.Key("neg_inf"); w.Uint64(s.neg_inf_count);
  w.Key("zero"); w.Uint64(s.zero_count);
  if (crc) { w.Key("crc32"); w.String(fmt::format("{:08x}", s.crc32)); }
  w.EndObject();
}

std::string TextLine(const std::string& file, const TensorInfo& info, const TensorStats& s, bool crc) {
  std::string line = fmt::format("{}  {}  {}", file, Name(info.dtype), info.ShapeString());
  if (s.has_values) {
    line += fmt::format("  max={} min={} mean={} norm={}", s.max, s.min, s.mean, s.norm);
  } else {
    line += "  max=- min=- mean=- norm=-";
  }
  line += fmt::format("  nan={} +inf={} -inf={} zero={}", s.nan_count, s.pos_inf_count, s.neg_inf_count, s.zero_count);
  if (crc) line += fmt::format("  crc32={:08x}", s.crc32);
  return line;
}


}  // namespace

int RunStats(const StatsArgs& args, const cli::CommonOptions&) {
  rapidjson::OStreamWrapper out(std::cout);
  JsonWriter writer(out);
  if (args.json) writer.StartArray();
  int exit_code = cli::kExitOk;
  StatsOptions options;
  options.crc32 = !args.no_crc;
  for (const std::string& path : args.files) {
    Result<std::vector<LabeledTensor>> tensors = ReadTensorsOfFile(path);
    if (!tensors.ok()) {  // report and go on with the other files
      exit_code = std::max(exit_code, cli::ReportAndExit("msprobe-dump", tensors.status()));
      continue;
    }
    for (const auto& [file, info] : *tensors) {
      Result<TensorSource> source = TensorSource::Open(info);
      Result<TensorStats> stats = source.ok() ? ComputeStats(*source, options) : Result<TensorStats>(source.status());
      if (!stats.ok()) {
        exit_code = std::max(exit_code, cli::ReportAndExit("msprobe-dump", stats.status()));
        continue;
      }
      if (args.json) {
        WriteJson(writer, file, info, *stats, options.crc32);
      } else {
        fmt::print("{}\n", TextLine(file, info, *stats, options.crc32));
      }
    }
  }
  if (args.json) {
    writer.EndArray();
    std::cout << '\n';
  }
  return exit_code;
}

}  // namespace msprobe::dump_app
