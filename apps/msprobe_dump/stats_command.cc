// msprobe-dump stats: one line (or one JSON object) per tensor file.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>

#include "common/exit_codes.h"
#include "msprobe/dump/text/python_format.h"
#include "msprobe/dump/files/tensor_file.h"
#include "msprobe/dump/tensor/tensor_source.h"
#include "msprobe/dump/tensor/tensor_stats.h"
#include "msprobe_dump/commands.h"

namespace msprobe::dump_app {
namespace {

// Strict JSON: a non-finite statistic is written as Python's repr text ("nan", "inf", "-inf"), as
// msprobe-compare --json writes them, since JSON has no token for it.
nlohmann::ordered_json StatsJson(const std::string& file, const TensorInfo& info, const TensorStats& s, bool crc) {
  const auto number = [&](double v) -> nlohmann::ordered_json {
    if (!s.has_values) return nullptr;
    if (std::isfinite(v)) return v;
    return PythonFloatRepr(v);
  };
  nlohmann::ordered_json j = {{"file", file},
                              {"dtype", Name(info.dtype)},
                              {"shape", info.shape},
                              {"max", number(s.max)},
                              {"min", number(s.min)},
                              {"mean", number(s.mean)},
                              {"norm", number(s.norm)},
                              {"nan", s.nan_count},
                              {"pos_inf", s.pos_inf_count},
                              {"neg_inf", s.neg_inf_count},
                              {"zero", s.zero_count}};
  if (crc) j["crc32"] = fmt::format("{:08x}", s.crc32);
  return j;
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
  nlohmann::ordered_json json_out = nlohmann::ordered_json::array();
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
        json_out.push_back(StatsJson(file, info, *stats, options.crc32));
      } else {
        fmt::print("{}\n", TextLine(file, info, *stats, options.crc32));
      }
    }
  }
  // A path that is not UTF-8 shows U+FFFD where its bad bytes were.
  if (args.json) fmt::print("{}\n", json_out.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
  return exit_code;
}

}  // namespace msprobe::dump_app
