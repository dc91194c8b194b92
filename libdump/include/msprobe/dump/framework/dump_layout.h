// Where the files of a framework dump are (docs/formats.md §4): dump.json/debug.json in rank*/proc* dirs
// under step* dirs, and tensor files under dump_tensor_data/ beside the json.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "msprobe/dump/util/status.h"

namespace msprobe {

// The dump.json/debug.json files that `path` names: the file itself, the json files of a rank dir, or
// those of every rank dir below a step dir or a dump root (at most two levels down), in natural order
// (step2 before step10). NotFound naming `path` when there are none, or naming the first rank folder
// below it that holds none (an interrupted rank beside complete ones).
Result<std::vector<std::string>> FindDumpJsonFiles(const std::string& path);

// rank, rank<N>, proc<N>: the names of the folders msprobe writes a rank's dump into (docs/formats.md
// §4.1, §4.2).
bool IsRankDirName(std::string_view name);

// The dump_tensor_data directory that belongs to a dump.json/debug.json.
std::string TensorDataDir(const std::string& dump_json_path);

// The path of tensor file `data_name` inside `tensor_dir`. data_name must be a plain file name:
// absolute paths, separators, "." / "..", NUL bytes and symlinks that leave tensor_dir are refused
// (InvalidInput naming data_name), a symlink loop too, and so is a tensor_dir that is itself a symlink
// leading outside its parent (the dump). The file need not exist.
Result<std::string> ResolveDataName(const std::string& tensor_dir, std::string_view data_name);

// "a10" vs "a9": digit runs compare as numbers.
bool NaturalLess(std::string_view a, std::string_view b);

}  // namespace msprobe
