// Helpers for the capture shim tests: run the sample program (optionally under the shim) in a child
// process with a given environment, and read what the shim wrote.
#pragma once

#include <rapidjson/document.h>
#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "dump_data.pb.h"

namespace capture_test {

namespace fs = std::filesystem;

struct RunResult {
  int code = -1;           // exit code, or 128 + signal
  long max_rss_kb = 0;     // the child's VmHWM (wait4 rusage)
  std::string out, err;
};

// Runs `argv` with the test's environment minus every MSPROBE_CAPTURE_*/FAKE_ACL_* variable, plus
// `env`; with LD_PRELOAD of the shim when `shim` is true.
RunResult RunProgram(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env, bool shim);

// Starts the same without waiting; stdout and stderr go to the given files.
pid_t Spawn(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env, bool shim,
            const std::string& out_path, const std::string& err_path);

// The sample program with arguments.
std::vector<std::string> Sample(std::vector<std::string> args);

// A fresh directory under the test temp dir, removed by the destructor.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// Every line of every manifest.jsonl under `dir`, parsed.
std::vector<rapidjson::Document> ReadManifests(const fs::path& dir);

// The run directory ({dir}/rank_{r}/{timestamp}) holding manifest.jsonl for rank `rank`.
fs::path RunDir(const fs::path& dir, int rank);

std::string ReadFile(const fs::path& path);

// A .bin decoded with libprotobuf: the header and the data section bytes.
struct DecodedBin {
  toolkit::dumpdata::DumpData header;
  std::string data;  // inputs then outputs
};
bool DecodeBin(const fs::path& path, DecodedBin* out);

// Every regular file under `dir` (recursively).
std::vector<fs::path> FilesUnder(const fs::path& dir);

}  // namespace capture_test
