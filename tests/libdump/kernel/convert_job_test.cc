#include "msprobe/dump/kernel/convert_job.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "msprobe/dump/kernel/mapping_csv.h"
#include "test_support.h"

namespace msprobe {
namespace {

namespace fs = std::filesystem;

// Every fixture .bin converted, each .npy byte for byte what numpy wrote (tests/data/bin/expected,
// gen_bin_fixtures.py); the counts and skip reasons as tests/cli/msprobe_convert_test.sh pins them.
TEST(ConvertJobTest, ConvertsTheFixturesAsNumpyWrites) {
  testing::TempDir tmp;
  uint64_t last_done = 0, last_total = 0;
  Result<KernelConvertReport> report =
      RunKernelConvert({testing::TestData("bin/cases"), tmp.Path("out"), false},
                       {.progress = [&](std::string_view, uint64_t done, uint64_t total) {
                         last_done = std::max(last_done, done);
                         last_total = total;
                       }});
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->files.size(), 19u);
  EXPECT_EQ(report->converted, 19u);
  EXPECT_EQ(report->tensors, 42u);
  EXPECT_EQ(report->skipped, (std::map<std::string, uint64_t>{{"buffer/workspace", 2}, {"no decoder for STRING (13)", 1}}));
  EXPECT_TRUE(report->mapping_errors.empty());
  EXPECT_EQ(last_done, 19u);
  EXPECT_EQ(last_total, 19u);
  uint64_t bytes = 0;
  for (const auto& entry : fs::directory_iterator(testing::TestData("bin/cases"))) bytes += entry.file_size();
  EXPECT_EQ(report->bytes_read, bytes);
  int compared = 0;
  for (const auto& entry : fs::directory_iterator(testing::TestData("bin/expected"))) {
    const fs::path ours = fs::path(tmp.Path("out")) / entry.path().filename();
    EXPECT_EQ(testing::ReadFile(ours.string()), testing::ReadFile(entry.path().string())) << ours;
    ++compared;
  }
  EXPECT_EQ(compared, 42);
  bool lstm_note = false;
  std::vector<std::string> warnings;  // the slots not converted: warnings, which -q does not hide
  for (const ConvertedBinFile& file : report->files) {
    for (const std::string& note : file.notes) lstm_note |= note == "output 0: device layout kept: no converter for FRACTAL_ZN_LSTM";
    warnings.insert(warnings.end(), file.warnings.begin(), file.warnings.end());
  }
  EXPECT_TRUE(lstm_note);
  EXPECT_EQ(warnings, (std::vector<std::string>{"output 5: skipped: dtype STRING (13) has no decoder",
                                                "buffer 0: skipped (raw on-chip data, no dtype)",
                                                "workspace 0: skipped (raw on-chip data, no dtype)"}));
}

// A name over 255 bytes is hashed (a Python FNV-1a of the name gives cd07…) and mapped back in
// mapping.csv, once however often the tree is converted.
TEST(ConvertJobTest, LongNamesGoThroughMappingCsv) {
  testing::TempDir tmp;
  const std::string long_bin = "Conv2D." + std::string(220, 'x') + ".1.2.1735011096403740";
  fs::create_directories(tmp.root() / "in");
  fs::copy_file(testing::TestData("bin/cases/Conv2D.Default_NHWC-op1.1.2.1735011096403740"), tmp.root() / "in" / long_bin);
  for (int run = 0; run < 2; ++run) {
    Result<KernelConvertReport> report = RunKernelConvert({tmp.Path("in"), tmp.Path("out"), false});
    ASSERT_TRUE(report.ok()) << report.status().ToString();
    EXPECT_EQ(report->tensors, 1u);
  }
  EXPECT_EQ(testing::ReadFile(tmp.Path("out/mapping.csv")),
            "cd07e89707c42ede520fd1a7aefa2e67.npy," + long_bin + ".output.0.NCHW.FLOAT16.npy\n");
  EXPECT_EQ(testing::ReadFile(tmp.Path("out/cd07e89707c42ede520fd1a7aefa2e67.npy")),
            testing::ReadFile(testing::TestData(
                "bin/expected/Conv2D.Default_NHWC-op1.1.2.1735011096403740.output.0.NCHW.FLOAT16.npy")));
}

// One bad file among good ones: reported on its own, the others converted.
TEST(ConvertJobTest, ABadFileFailsAlone) {
  testing::TempDir tmp;
  fs::create_directories(tmp.root() / "in" / "sub");
  fs::copy_file(testing::TestData("bin/malformed/Add.truncated.1.2.1735011096403740"),
                tmp.root() / "in" / "Add.truncated.1.2.1735011096403740");
  fs::copy_file(testing::TestData("bin/cases/Add.Default_Add-op1.3.2.1735011096403740"),
                tmp.root() / "in" / "sub" / "Add.Default_Add-op1.3.2.1735011096403740");
  testing::WriteFile(tmp.Path("in/notes.txt"), "not a dump");
  Result<KernelConvertReport> report = RunKernelConvert({tmp.Path("in"), tmp.Path("out"), false});
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  ASSERT_EQ(report->files.size(), 2u);
  EXPECT_EQ(report->converted, 1u);
  EXPECT_EQ(report->tensors, 2u);
  EXPECT_STATUS(report->files[0].status, Code::kInvalidInput,
                "truncated: the header declares data up to offset 93, the file has 90 bytes");
  EXPECT_TRUE(report->files[1].status.ok());
  EXPECT_TRUE(fs::exists(tmp.Path("out/sub/Add.Default_Add-op1.3.2.1735011096403740.output.0.NCHW.FLOAT.npy")));
}

// An -o that is a file fails the run once, before any file is converted, not once per file.
TEST(ConvertJobTest, OutputThatIsAFileFailsOnceBeforeAnyFile) {
  testing::TempDir tmp;
  testing::WriteFile(tmp.Path("outfile"), "x");
  const Result<KernelConvertReport> report = RunKernelConvert({testing::TestData("bin/cases"), tmp.Path("outfile"), false});
  EXPECT_STATUS(report, Code::kIOError, "cannot create the folder " + tmp.Path("outfile") + " (Not a directory): choose another -o");
  EXPECT_EQ(report.status().source(), tmp.Path("outfile"));
  EXPECT_EQ(testing::ReadFile(tmp.Path("outfile")), "x");
}

// The output never goes into the tree it converts (output_location.h): refused before anything.
TEST(ConvertJobTest, OutputInsideTheInputIsRefused) {
  testing::TempDir tmp;
  fs::create_directories(tmp.root() / "in");
  fs::copy_file(testing::TestData("bin/cases/Add.Default_Add-op1.3.2.1735011096403740"),
                tmp.root() / "in" / "Add.Default_Add-op1.3.2.1735011096403740");
  for (const std::string& out : {tmp.Path("in"), tmp.Path("in/out")}) {
    const Result<KernelConvertReport> report = RunKernelConvert({tmp.Path("in"), out, false});
    EXPECT_STATUS(report, Code::kInvalidInput, "the output would land inside the input " + tmp.Path("in"));
    EXPECT_EQ(report.status().source(), out);
  }
  EXPECT_EQ(std::distance(fs::directory_iterator(tmp.root() / "in"), fs::directory_iterator()), 1);
}

TEST(ConvertJobTest, MissingInput) {
  testing::TempDir tmp;
  EXPECT_STATUS(RunKernelConvert({tmp.Path("missing"), tmp.Path("out"), false}), Code::kNotFound,
                "no such file or directory");
}

}  // namespace
}  // namespace msprobe
