// Outputs never land on inputs, however the path is spelled.
#include "msprobe/dump/framework/output_location.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "test_support.h"

namespace msprobe {
namespace {

namespace fs = std::filesystem;

class OutputLocationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(tmp_.Path("dump/rank0/dump_tensor_data"));
    testing::WriteFile(tmp_.Path("dump/rank0/dump.json"), "{}");
  }
  std::string Path(const std::string& p) const { return tmp_.Path(p); }
  testing::TempDir tmp_;
};

TEST_F(OutputLocationTest, OutputDirectoryOutsideTheInputsIsAccepted) {
  EXPECT_TRUE(CheckOutputOutsideInputs(Path("out"), true, {Path("dump"), Path("dump/rank0/dump.json")}).ok());
  EXPECT_TRUE(CheckOutputOutsideInputs(Path("dumpling"), true, {Path("dump")}).ok());  // a prefix, not a parent
  EXPECT_TRUE(CheckOutputOutsideInputs(Path("out"), true, {"", Path("missing")}).ok());
}

TEST_F(OutputLocationTest, OutputDirectoryInsideAnInputDirectoryIsRefused) {
  EXPECT_STATUS(CheckOutputOutsideInputs(Path("dump"), true, {Path("dump")}), Code::kInvalidInput,
                "inside the input");
  EXPECT_STATUS(CheckOutputOutsideInputs(Path("dump/rank0/new/deeper"), true, {Path("dump")}),
                Code::kInvalidInput, "inside the input");
  EXPECT_STATUS(CheckOutputOutsideInputs(Path("out/../dump/x"), true, {Path("dump")}), Code::kInvalidInput,
                "inside the input");
}

TEST_F(OutputLocationTest, OutputInsideAJsonInputsTensorDirectoryIsRefused) {
  EXPECT_STATUS(CheckOutputOutsideInputs(Path("dump/rank0/dump_tensor_data/out"), true, {Path("dump/rank0/dump.json")}),
                Code::kInvalidInput, "tensor directory");
  // Beside dump.json is fine: nothing there is overwritten.
  EXPECT_TRUE(CheckOutputOutsideInputs(Path("dump/rank0/out"), true, {Path("dump/rank0/dump.json")}).ok());
}

TEST_F(OutputLocationTest, OutputFileThatIsAnInputIsRefused) {
  EXPECT_STATUS(CheckOutputOutsideInputs(Path("dump/rank0/dump.json"), false, {Path("dump/rank0/dump.json")}),
                Code::kInvalidInput, "overwrite the input");
  fs::create_symlink(Path("dump/rank0/dump.json"), Path("link.json"));
  EXPECT_STATUS(CheckOutputOutsideInputs(Path("link.json"), false, {Path("dump/rank0/dump.json")}),
                Code::kInvalidInput, "overwrite the input");
  EXPECT_TRUE(CheckOutputOutsideInputs(Path("junit.xml"), false, {Path("dump/rank0/dump.json")}).ok());
}

}  // namespace
}  // namespace msprobe
