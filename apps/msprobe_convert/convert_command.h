// msprobe-convert: kernel .bin dumps (a file or a tree) → one .npy per input/output slot.
#pragma once

#include <string>

#include "common/app_options.h"

namespace msprobe::convert_app {

struct ConvertArgs {
  std::string dump_path;
  std::string output_path = "./output";
  std::string type = "npy";
  bool keep_device_format = false;
};

// Returns the exit code: 0, or 3 when any input file could not be converted (each reported on one
// stderr line, the others still converted).
int RunConvert(const ConvertArgs& args, const cli::CommonOptions& common);

}  // namespace msprobe::convert_app
