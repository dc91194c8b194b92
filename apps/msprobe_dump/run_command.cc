// msprobe-dump run: runs a program under the capture shim (capture_shim/README.md) and reports what it
// captured, from the manifest.jsonl files of the run directories the program created
// (kernel/capture_manifest.h reads them).
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <regex>

#include "common/exit_codes.h"
#include "msprobe/dump/kernel/capture_manifest.h"
#include "msprobe_dump/commands.h"

namespace msprobe::dump_app {
namespace {

namespace fs = std::filesystem;
constexpr const char* kShimName = "libmsprobe_capture.so";

// The shim next to the executable, in the build tree (../capture_shim/) or an install tree (../lib/).
Result<std::string> FindShim(const std::string& explicit_path) {
  if (!explicit_path.empty()) {
    if (fs::is_regular_file(explicit_path)) return fs::absolute(explicit_path).string();
    return Status::InvalidInput(explicit_path, "--shim: no such file");
  }
  std::error_code ec;
  const fs::path exe_dir = fs::read_symlink("/proc/self/exe", ec).parent_path();
  for (const fs::path& candidate : {exe_dir / kShimName, exe_dir / ".." / "capture_shim" / kShimName,
                                    exe_dir / ".." / "lib" / kShimName}) {
    if (fs::is_regular_file(candidate, ec)) return fs::weakly_canonical(candidate).string();
  }
  return Status::InvalidInput(kShimName, fmt::format("not found next to {} nor in ../capture_shim or ../lib; "
                                                     "pass --shim PATH", exe_dir.string()));
}

// On stderr, like every report of ours: the program's stdout stays exactly what it printed, so
// `msprobe-dump run -- ./train | tee log` logs only the program.
void PrintSummary(const std::string& manifest, const CaptureSummary& s) {
  const fs::path run_dir = fs::path(manifest).parent_path();
  std::cerr << fmt::format("{}: {} ops captured, {} files, {} bytes", run_dir.string(), s.ops, s.files, s.bytes);
  if (s.stats_ops) std::cerr << fmt::format(", {} ops as statistic.csv rows", s.stats_ops);
  std::cerr << fmt::format(", {} dropped\n", s.dropped);
  if (!s.by_type.empty()) {
    std::string types;
    for (const auto& [type, n] : s.by_type) types += fmt::format("{}{} {}", types.empty() ? "" : ", ", type, n);
    std::cerr << "  by op type: " << types << "\n";
  }
  for (const auto& [reason, n] : s.drop_reasons) std::cerr << fmt::format("  dropped ({}): {}\n", reason, n);
}

void SetCaptureEnvironment(const RunArgs& args, const std::string& shim, const fs::path& dir) {
  setenv("MSPROBE_CAPTURE_ENABLE", "1", 1);
  setenv("MSPROBE_CAPTURE_DIR", dir.c_str(), 1);
  setenv("MSPROBE_CAPTURE_MODE", args.mode.c_str(), 1);
  if (!args.ops.empty()) setenv("MSPROBE_CAPTURE_OPS", args.ops.c_str(), 1);
  if (!args.ranks.empty()) setenv("MSPROBE_CAPTURE_RANKS", args.ranks.c_str(), 1);
  const char* preload = std::getenv("LD_PRELOAD");
  const std::string value = preload && *preload ? shim + ":" + preload : shim;
  setenv("LD_PRELOAD", value.c_str(), 1);
}

// Runs the command and returns its exit code (128 + signal when killed), or an error when it cannot
// be started (the child reports execvp's errno through a close-on-exec pipe).
Result<int> RunChild(const std::vector<std::string>& command) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return Status::Internal(command[0], "pipe failed");
  const pid_t pid = fork();
  if (pid < 0) return Status::Internal(command[0], fmt::format("fork failed: {}", std::strerror(errno)));
  if (pid == 0) {
    std::vector<char*> argv;
    for (const std::string& a : command) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    const int err = errno;
    (void)!write(fds[1], &err, sizeof err);
    _exit(127);
  }
  close(fds[1]);
  int exec_errno = 0;
  const bool exec_failed = read(fds[0], &exec_errno, sizeof exec_errno) == sizeof exec_errno;
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (exec_failed) return Status::InvalidInput(command[0], fmt::format("cannot run: {}", std::strerror(exec_errno)));
  return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

}  // namespace

int RunCapture(const RunArgs& args, const cli::CommonOptions& common) {
  if (!args.ranks.empty() && !std::regex_match(args.ranks, std::regex(R"(\d+(-\d*)?(,\d+(-\d*)?)*)"))) {
    std::cerr << "msprobe-dump: error: --ranks: expected ranges like 0,2-3 or 4-, got '" << args.ranks << "'\n";
    return cli::kExitUsage;
  }
  try {
    std::regex check(args.ops, std::regex::ECMAScript);
  } catch (const std::regex_error&) {
    std::cerr << "msprobe-dump: error: --ops: not a valid regular expression: '" << args.ops << "'\n";
    return cli::kExitUsage;
  }
  auto shim = FindShim(args.shim);
  if (!shim.ok()) return cli::ReportAndExit("msprobe-dump", shim.status());
  const fs::path dir = fs::absolute(args.dir);
  const std::map<std::string, uint64_t> before = FindCaptureManifests(dir.string());

  SetCaptureEnvironment(args, *shim, dir);
  auto code = RunChild(args.command);
  if (!code.ok()) return cli::ReportAndExit("msprobe-dump", code.status());

  if (!common.quiet) {
    bool any = false;
    for (const auto& [manifest, size] : FindCaptureManifests(dir.string())) {
      const auto old = before.find(manifest);
      const uint64_t skip = old == before.end() ? 0 : old->second;
      if (skip == size) continue;
      const Result<CaptureSummary> summary = ReadCaptureManifest(manifest, skip);
      if (!summary.ok()) {  // the program's exit code still comes back
        std::cerr << "msprobe-dump: warning: " << summary.status().ToString() << "\n";
        continue;
      }
      PrintSummary(manifest, *summary);
      any = true;
    }
    if (!any) std::cerr << fmt::format("nothing captured under {}\n", dir.string());
  }
  return *code;
}

}  // namespace msprobe::dump_app
