#include "capture_test_support.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

extern char** environ;

namespace capture_test {

pid_t Spawn(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env, bool shim,
            const std::string& out_path, const std::string& err_path) {
  const pid_t pid = fork();
  if (pid == 0) {
    std::vector<std::string> keep;
    for (char** e = environ; *e; ++e) {
      const std::string kv = *e;
      if (kv.rfind("MSPROBE_CAPTURE_", 0) == 0 || kv.rfind("FAKE_ACL_", 0) == 0 || kv.rfind("LD_PRELOAD=", 0) == 0 ||
          kv.rfind("RANK_ID=", 0) == 0 || kv.rfind("MSPROBE_SAMPLE_", 0) == 0) {
        continue;
      }
      keep.push_back(kv);
    }
    for (const auto& [k, v] : env) keep.push_back(k + "=" + v);
    if (shim) keep.push_back(std::string("LD_PRELOAD=") + CAPTURE_SHIM_LIB);
    std::vector<char*> envp, args;
    for (auto& kv : keep) envp.push_back(kv.data());
    envp.push_back(nullptr);
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    if (!freopen(out_path.c_str(), "w", stdout) || !freopen(err_path.c_str(), "w", stderr)) _exit(126);
    execve(args[0], args.data(), envp.data());
    _exit(127);
  }
  return pid;
}

RunResult RunProgram(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env, bool shim) {
  static std::atomic<int> counter{0};
  const fs::path base = fs::temp_directory_path() / ("capture_run_" + std::to_string(getpid()) + "_" + std::to_string(counter++));
  const std::string out_path = base.string() + ".out", err_path = base.string() + ".err";
  const pid_t pid = Spawn(argv, env, shim, out_path, err_path);
  RunResult r;
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.max_rss_kb = usage.ru_maxrss;
  r.out = ReadFile(out_path);
  r.err = ReadFile(err_path);
  fs::remove(out_path);
  fs::remove(err_path);
  return r;
}

std::vector<std::string> Sample(std::vector<std::string> args) {
  args.insert(args.begin(), CAPTURE_SAMPLE);
  return args;
}

TempDir::TempDir() {
  std::random_device rd;
  path_ = fs::temp_directory_path() / ("capture_test_" + std::to_string(rd()));
  fs::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<fs::path> FilesUnder(const fs::path& dir) {
  std::vector<fs::path> out;
  if (!fs::exists(dir)) return out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) out.push_back(e.path());
  }
  return out;
}

std::vector<rapidjson::Document> ReadManifests(const fs::path& dir) {
  std::vector<rapidjson::Document> out;
  for (const fs::path& f : FilesUnder(dir)) {
    if (f.filename() != "manifest.jsonl") continue;
    std::istringstream lines(ReadFile(f));
    std::string line;
    while (std::getline(lines, line)) {
      rapidjson::Document d;
      d.Parse(line.c_str());
      out.push_back(std::move(d));
    }
  }
  return out;
}

fs::path RunDir(const fs::path& dir, int rank) {
  const fs::path rank_dir = dir / ("rank_" + std::to_string(rank));
  if (!fs::exists(rank_dir)) return {};
  for (const auto& e : fs::directory_iterator(rank_dir)) return e.path();
  return {};
}

bool DecodeBin(const fs::path& path, DecodedBin* out) {
  const std::string bytes = ReadFile(path);
  if (bytes.size() < 8) return false;
  uint64_t header_len = 0;
  for (int i = 7; i >= 0; --i) header_len = (header_len << 8) | static_cast<unsigned char>(bytes[i]);
  if (header_len > bytes.size() - 8) return false;
  if (!out->header.ParseFromArray(bytes.data() + 8, static_cast<int>(header_len))) return false;
  out->data = bytes.substr(8 + header_len);
  return true;
}

}  // namespace capture_test
