// The shim's safety rules (docs/capture.md A8.5) on the sample program: bounded memory, no partial final
// file after SIGTERM, threads and fork, disk guard, bad configuration and failing ops never hurting
// the program.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <regex>
#include <thread>

#include "capture_test_support.h"
#include "msprobe/dump/formats/bin_reader.h"

namespace capture_test {
namespace {

std::map<std::string, std::string> Capture(const fs::path& dir, std::map<std::string, std::string> extra = {}) {
  extra["MSPROBE_CAPTURE_ENABLE"] = "1";
  extra["MSPROBE_CAPTURE_DIR"] = dir.string();
  extra["MSPROBE_CAPTURE_MIN_FREE_DISK"] = "0";
  return extra;
}

// With --big 64 the Add on thread 0 has three 64 MiB tensors (192 MiB to capture per step): larger
// than a 32 MiB budget, so written in pieces (or dropped when asked), the peak staying within budget.
TEST(CaptureSafety, MemoryBudgetBoundsThePeakAndDropsWhatDoesNotFit) {
  if (CAPTURE_SANITIZED) GTEST_SKIP() << "resident sizes are not meaningful under sanitizers";
  TempDir tmp;
  const auto plain = RunProgram(Sample({"--steps", "2", "--big", "64"}), {}, false);
  ASSERT_EQ(plain.code, 0) << plain.err;

  const fs::path small = tmp.path() / "small";
  const auto dropped = RunProgram(Sample({"--steps", "2", "--big", "64"}),
                                  Capture(small, {{"MSPROBE_CAPTURE_MEMORY", "32M"}, {"MSPROBE_CAPTURE_LARGE", "drop"}}), true);
  ASSERT_EQ(dropped.code, 0) << dropped.err;
  EXPECT_EQ(dropped.out, plain.out);
  int big_dropped = 0, written = 0;
  for (const auto& rec : ReadManifests(small)) {
    const std::string status = rec["status"].GetString();
    if (status == "dropped") {
      EXPECT_STREQ(rec["op_type"].GetString(), "Add");
      EXPECT_NE(std::string(rec["reason"].GetString()).find("MSPROBE_CAPTURE_MEMORY"), std::string::npos);
      ++big_dropped;
    } else {
      ++written;
    }
  }
  EXPECT_EQ(big_dropped, 2);
  EXPECT_EQ(written, 2 * 2 * 13);
  EXPECT_LT(dropped.max_rss_kb - plain.max_rss_kb, (32 + 16) * 1024) << "peak grew past the 32 MiB budget";

  const fs::path pieces = tmp.path() / "pieces";
  const auto chunked =
      RunProgram(Sample({"--steps", "2", "--big", "64"}), Capture(pieces, {{"MSPROBE_CAPTURE_MEMORY", "32M"}}), true);
  ASSERT_EQ(chunked.code, 0) << chunked.err;
  EXPECT_EQ(chunked.out, plain.out);
  int big_pieces = 0;
  for (const auto& rec : ReadManifests(pieces)) {
    EXPECT_STREQ(rec["status"].GetString(), "written");
    if (std::string(rec["op_type"].GetString()) == "Add") big_pieces += rec["pieces"].GetInt();
  }
  EXPECT_EQ(big_pieces, 2 * 3 * 8) << "two calls, three 64 MiB slots, 8 MiB pieces (a quarter of the budget)";
  EXPECT_LT(chunked.max_rss_kb - plain.max_rss_kb, (32 + 16) * 1024) << "peak grew past the 32 MiB budget";

  const fs::path large = tmp.path() / "large";
  const auto kept = RunProgram(Sample({"--steps", "2", "--big", "64"}),
                               Capture(large, {{"MSPROBE_CAPTURE_MEMORY", "256M"}, {"MSPROBE_CAPTURE_ON_FULL", "block"}}), true);
  ASSERT_EQ(kept.code, 0) << kept.err;
  EXPECT_EQ(kept.out, plain.out);
  int big_written = 0;
  for (const auto& rec : ReadManifests(large)) {
    EXPECT_STREQ(rec["status"].GetString(), "written");
    big_written += std::string(rec["op_type"].GetString()) == "Add";
  }
  EXPECT_EQ(big_written, 2);
  EXPECT_LT(kept.max_rss_kb - plain.max_rss_kb, (256 + 16) * 1024) << "peak grew past the 256 MiB budget";
}

// Every file without the .tmp suffix is complete, wherever the kill lands.
TEST(CaptureSafety, SigtermMidWriteLeavesNoPartialFinalFile) {
  TempDir tmp;
  const fs::path dir = tmp.path() / "cap";
  const pid_t pid = Spawn(Sample({"--steps", "40", "--big", "32"}), Capture(dir, {{"MSPROBE_CAPTURE_MEMORY", "512M"}}),
                          true, (tmp.path() / "out").string(), (tmp.path() / "err").string());
  // Kill once the first big file is being written.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  bool seen_big = false;
  while (!seen_big && std::chrono::steady_clock::now() < deadline) {
    for (const fs::path& f : FilesUnder(dir)) seen_big = seen_big || f.filename().string().rfind("Add.", 0) == 0;
    if (!seen_big) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ASSERT_TRUE(seen_big);
  kill(pid, SIGTERM);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status));
  int complete = 0;
  for (const fs::path& f : FilesUnder(dir)) {
    const std::string name = f.filename().string();
    if (f.extension() == ".tmp" || name == "manifest.jsonl") continue;
    auto bin = msprobe::ReadBinFile(f.string());
    ASSERT_TRUE(bin.ok()) << name << ": " << bin.status().message();
    EXPECT_EQ(bin->trailing_bytes, 0u);
    ++complete;
  }
  EXPECT_GT(complete, 0);
}

// Two threads issuing 3000 ops each while the main thread forks 20 children that call ACL.
TEST(CaptureSafety, ThreadsAndForkedChildrenRunOnWhileCapturing) {
  TempDir tmp;
  const auto r = RunProgram(Sample({"--stress", "3000"}), Capture(tmp.path(), {{"MSPROBE_CAPTURE_MODE", "stats"}}), true);
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("stress: 0 forked children failed"), std::string::npos);
  const auto lines = ReadManifests(tmp.path());
  EXPECT_EQ(lines.size(), 6000u);
  for (const auto& rec : lines) EXPECT_EQ(rec["pid"].GetInt(), lines[0]["pid"].GetInt()) << "a child wrote";
}

TEST(CaptureSafety, LowDiskStopsCaptureAndTheProgramCarriesOn) {
  TempDir tmp;
  const auto plain = RunProgram(Sample({"--steps", "2"}), {}, false);
  auto env = Capture(tmp.path());
  env["MSPROBE_CAPTURE_MIN_FREE_DISK"] = "1000000T";
  const auto r = RunProgram(Sample({"--steps", "2"}), env, true);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, plain.out);
  EXPECT_NE(r.err.find("msprobe-capture: capture stopped: free disk space below MSPROBE_CAPTURE_MIN_FREE_DISK"),
            std::string::npos) << r.err;
  for (const fs::path& f : FilesUnder(tmp.path())) EXPECT_EQ(f.filename(), "manifest.jsonl") << f;
}

TEST(CaptureSafety, MalformedConfigurationLeavesCaptureOff) {
  TempDir tmp;
  const auto plain = RunProgram(Sample({"--steps", "1"}), {}, false);
  for (auto [name, value] : {std::pair{"MSPROBE_CAPTURE_MODE", "bogus"}, std::pair{"MSPROBE_CAPTURE_OPS", "(["},
                             std::pair{"MSPROBE_CAPTURE_MEMORY", "12Q"}, std::pair{"MSPROBE_CAPTURE_RANKS", "3-1"},
                             std::pair{"MSPROBE_CAPTURE_DIRECT", "on"}, std::pair{"MSPROBE_CAPTURE_DIRECT_MIN", "x"}}) {
    const auto r = RunProgram(Sample({"--steps", "1"}), Capture(tmp.path(), {{name, value}}), true);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out, plain.out);
    EXPECT_EQ(r.err.rfind(std::string("msprobe-capture: capture off: ") + name + "='" + value + "'", 0), 0u) << r.err;
    EXPECT_FALSE(fs::exists(tmp.path() / "rank_0"));
  }
}

TEST(CaptureSafety, FailingOpIsRecordedAsDroppedAndItsErrorReturned) {
  TempDir tmp;
  const auto plain = RunProgram(Sample({"--steps", "1"}), {{"FAKE_ACL_FAIL_OP", "5"}}, false);
  const auto r = RunProgram(Sample({"--steps", "1"}), Capture(tmp.path(), {{"FAKE_ACL_FAIL_OP", "5"}}), true);
  EXPECT_EQ(plain.code, 1);
  EXPECT_EQ(r.code, 1);
  // Which op is the sixth call depends on how the two threads interleave.
  const std::regex failed_line("sample_train: [A-Za-z]+ failed: 500000\n");
  EXPECT_TRUE(std::regex_match(plain.err, failed_line)) << plain.err;
  EXPECT_TRUE(std::regex_match(r.err, failed_line)) << r.err;
  int failed = 0;
  for (const auto& rec : ReadManifests(tmp.path())) {
    failed += std::string(rec["status"].GetString()) == "dropped" &&
              std::string(rec["reason"].GetString()) == "the op returned an error";
  }
  EXPECT_EQ(failed, 1);
}

TEST(CaptureSafety, DisabledShimChangesNothing) {
  TempDir tmp;
  const auto plain = RunProgram(Sample({"--steps", "2"}), {}, false);
  const auto r = RunProgram(Sample({"--steps", "2"}), {{"MSPROBE_CAPTURE_DIR", tmp.path().string()}}, true);
  ASSERT_EQ(r.code, 0);
  EXPECT_EQ(r.out, plain.out);
  EXPECT_EQ(r.err, "");
  EXPECT_TRUE(FilesUnder(tmp.path()).empty());
}

}  // namespace
}  // namespace capture_test
