// msprobe-convert: kernel .bin dumps (a file or a tree, docs/kernel_dump.md §1) → one .npy per input
// and output slot (§4.2 names, kernel_dump_name.h), device layouts converted to host layouts (§3,
// layout_convert.h), names too long for the file system hashed and listed in mapping.csv (§4.4).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "msprobe/dump/util/job_context.h"
#include "msprobe/dump/util/status.h"

namespace msprobe {

struct KernelConvertOptions {
  std::string dump_path;  // a kernel dump file or a directory tree of them
  std::string output_path = "./output";
  bool keep_device_format = false;  // write device layouts as they are
  // npy: {bin}.{io}.{slot}.{FORMAT}.{DTYPE}.npy; pt: torch .pt files named as msprobe parse names
  // them, {bin}.{io}.{slot}.pt (kernel_dump_name.h)
  enum class Output { kNpy, kPt } output = Output::kNpy;
};

// One input file: converted (status ok) or not (status says why; the slots written before the
// failure stay on disk but are not counted).
struct ConvertedBinFile {
  std::string input;
  Status status;
  uint64_t tensors = 0;            // .npy files written
  uint64_t bytes_read = 0;         // the size of the .bin
  std::vector<std::string> notes;     // per slot: kept layouts, caveats
  std::vector<std::string> warnings;  // data not converted: skipped slots, ignored trailing bytes
};

struct KernelConvertReport {
  // Every kernel dump found (a tree's files whose names look like .bin dumps, or the one file given),
  // in natural path order.
  std::vector<ConvertedBinFile> files;
  std::vector<Status> mapping_errors;  // mapping.csv files that could not be written
  // Over the files converted:
  uint64_t converted = 0, tensors = 0, bytes_read = 0;
  std::map<std::string, uint64_t> skipped;  // slots not written, by short reason
};

// Converts the files in parallel (one task per file). InvalidInput, first, when output_path is at or
// inside dump_path (output_location.h: the input is never written to). NotFound when dump_path does
// not exist, IOError
// when the tree cannot be listed or output_path cannot be made or written (before any file is
// converted), InvalidInput naming what the folder holds when it has no .bin dump;
// failures of single files (a file of another kind named as what it is) are in the report.
// Progress: ("kernel dumps", converted or failed, in all), from the worker threads.
Result<KernelConvertReport> RunKernelConvert(const KernelConvertOptions& options, const JobContext& context = {});

}  // namespace msprobe
