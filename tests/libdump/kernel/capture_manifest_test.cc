#include "msprobe/dump/kernel/capture_manifest.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "test_support.h"

namespace msprobe {
namespace {

namespace fs = std::filesystem;

// Lines as the shim's DumpWriter writes them (capture_shim/src/dump_writer.cc, README "Output").
const std::string kWritten =
    R"({"seq":0,"pid":7,"tid":7,"rank":0,"device":0,"stream":0,"task":0,"op_type":"MatMul","op_name":"MatMul_0",)"
    R"("status":"written","file":"0/MatMul.MatMul_0.0.0.1735011096403740","bytes":1000,"slots":[]})"
    "\n";
const std::string kWrittenCast =
    R"({"seq":1,"pid":7,"tid":7,"rank":0,"device":0,"stream":0,"task":1,"op_type":"Cast","op_name":"Cast_1",)"
    R"("status":"written","file":"0/Cast.Cast_1.1.0.1735011096403741","bytes":24,"slots":[],"direct":0})"
    "\n";
const std::string kStats =
    R"({"seq":2,"pid":7,"tid":7,"rank":0,"device":0,"stream":0,"task":2,"op_type":"MatMul","op_name":"MatMul_2",)"
    R"("status":"stats","slots":[]})"
    "\n";
const std::string kDropped =
    R"({"seq":3,"pid":7,"tid":7,"rank":0,"device":0,"stream":0,"task":3,"op_type":"Relu","op_name":"Relu_3",)"
    R"("status":"dropped","reason":"queue full"})"
    "\n";

TEST(CaptureManifestTest, SummarisesEachStatus) {
  const CaptureSummary s = SummarizeCaptureManifest(kWritten + kWrittenCast + kStats + kDropped + kDropped);
  EXPECT_EQ(s.ops, 3u);
  EXPECT_EQ(s.files, 2u);
  EXPECT_EQ(s.bytes, 1024u);
  EXPECT_EQ(s.stats_ops, 1u);
  EXPECT_EQ(s.dropped, 2u);
  EXPECT_EQ(s.by_type, (std::map<std::string, uint64_t>{{"Cast", 1}, {"MatMul", 2}}));
  EXPECT_EQ(s.drop_reasons, (std::map<std::string, uint64_t>{{"queue full", 2}}));
}

// A line cut short when the program was killed, and members of other types, are left out.
TEST(CaptureManifestTest, SkipsLinesItCannotRead) {
  const std::string text = kWritten + R"({"seq":9,"status":"writ)" "\n" R"({"status":7,"op_type":"Add"})" "\n" +
                           R"({"status":"written","op_type":["Add"],"bytes":-5})" "\n" + "[1,2]\n\n" +
                           R"({"status":"dropped","reason":3})";
  const CaptureSummary s = SummarizeCaptureManifest(text);
  EXPECT_EQ(s.ops, 2u);
  EXPECT_EQ(s.files, 2u);
  EXPECT_EQ(s.bytes, 1000u);
  EXPECT_EQ(s.by_type, (std::map<std::string, uint64_t>{{"MatMul", 1}}));
  EXPECT_EQ(s.dropped, 1u);
  EXPECT_TRUE(s.drop_reasons.empty());
}

// msprobe-dump run lists the manifests before and after the program and reads only what it added.
TEST(CaptureManifestTest, FindsManifestsAndReadsWhatFollowsTheSkip) {
  testing::TempDir tmp;
  const fs::path run = tmp.root() / "rank_0" / "20250101120000";
  fs::create_directories(run);
  fs::create_directories(tmp.root() / "other" / "20250101120000");
  testing::WriteFile((tmp.root() / "other" / "20250101120000" / "manifest.jsonl").string(), kWritten);
  const std::string manifest = (run / "manifest.jsonl").string();
  testing::WriteFile(manifest, kWritten + kDropped);
  const std::map<std::string, uint64_t> found = FindCaptureManifests(tmp.root().string());
  EXPECT_EQ(found, (std::map<std::string, uint64_t>{{manifest, kWritten.size() + kDropped.size()}}));
  Result<CaptureSummary> rest = ReadCaptureManifest(manifest, kWritten.size());
  ASSERT_TRUE(rest.ok()) << rest.status().ToString();
  EXPECT_EQ(rest->ops, 0u);
  EXPECT_EQ(rest->dropped, 1u);
  Result<CaptureSummary> all = ReadCaptureManifest(manifest);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->files, 1u);
  EXPECT_TRUE(FindCaptureManifests(tmp.Path("missing")).empty());
  EXPECT_STATUS(ReadCaptureManifest(tmp.Path("missing.jsonl")), Code::kIOError, "cannot open");
}

}  // namespace
}  // namespace msprobe
