// The dump.json reader that verify and compare share (StreamDumpJson and its document twin): what
// it tells its visitor and in which order, the header, and its errors.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "msprobe/dump/text/python_format.h"
#include "msprobe/dump/framework/dump_json.h"
#include "test_support.h"

namespace msprobe {
namespace {

// Writes down every call, one line each; refuses the entry named `refuse`.
class Recorder : public DumpJsonVisitor {
 public:
  explicit Recorder(std::string refuse = "") : refuse_(std::move(refuse)) {}

  Status Member(std::string_view key, const JsonValue& value) override {
    log.push_back(fmt::format("member {} {}", key, PythonStr(value)));
    return Status::Ok();
  }
  Status Data(const DumpJsonHeader& h) override {
    log.push_back(fmt::format("data task={} level={} framework={}", h.task, h.level, h.framework));
    return Status::Ok();
  }
  Status Entry(std::string_view key, const JsonValue& value) override {
    if (key == refuse_) return Status::InvalidInput("visitor", fmt::format("refused {}", key));
    log.push_back(fmt::format("entry {} {}", key, PythonStr(value)));
    return Status::Ok();
  }

  std::vector<std::string> log;

 private:
  std::string refuse_;
};

// Old test files put "framework" last (docs/formats.md §1.1); NaN and Infinity are bare tokens (§1.7).
constexpr std::string_view kFrameworkLast = R"({"task": "statistics", "level": "L1", "data": {
  "Functional.relu.0.forward": {"input_args": [{"type": "torch.Tensor", "Max": NaN}]},
  "Torch.a\u0062s.0.forward": [Infinity, -Infinity, null]},
 "framework": "mindspore"})";

TEST(DumpJsonReaderTest, StreamsMembersAndEntriesInFileOrder) {
  Recorder recorder;
  auto header = StreamDumpJsonText(kFrameworkLast, "dump.json", recorder);
  ASSERT_TRUE(header.ok()) << header.status().ToString();
  // The header given before the entries holds the members read so far; the one returned, all of them.
  const std::vector<std::string> expected = {
      "member task statistics",
      "member level L1",
      "member data {}",
      "data task=statistics level=L1 framework=pytorch",
      "entry Functional.relu.0.forward {'input_args': [{'type': 'torch.Tensor', 'Max': nan}]}",
      "entry Torch.abs.0.forward [inf, -inf, None]",
      "member framework mindspore",
  };
  EXPECT_EQ(recorder.log, expected);
  EXPECT_EQ(header->task, "statistics");
  EXPECT_EQ(header->level, "L1");
  EXPECT_EQ(header->framework, "mindspore");
  EXPECT_TRUE(header->has_data);
}

TEST(DumpJsonReaderTest, StreamsAFileAsItsText) {
  testing::TempDir dir;
  const std::string path = dir.Path("dump.json");
  testing::WriteFile(path, std::string(kFrameworkLast));
  Recorder from_file, from_text;
  auto header = StreamDumpJson(path, from_file);
  ASSERT_TRUE(header.ok()) << header.status().ToString();
  ASSERT_TRUE(StreamDumpJsonText(kFrameworkLast, path, from_text).ok());
  EXPECT_EQ(from_file.log, from_text.log);
  EXPECT_EQ(header->framework, "mindspore");
  EXPECT_STATUS(StreamDumpJson(dir.Path("missing.json"), from_file), Code::kNotFound, "");
}

// json.load's dict has every member before anyone reads "data": a parsed document gives the whole
// header first.
TEST(DumpJsonReaderTest, AParsedDocumentGivesItsWholeHeaderFirst) {
  auto doc = ParseJsonText(kFrameworkLast, "dump.json");
  ASSERT_TRUE(doc.ok());
  Recorder recorder;
  auto header = VisitDumpJson(*doc, "dump.json", recorder);
  ASSERT_TRUE(header.ok()) << header.status().ToString();
  const std::vector<std::string> expected = {
      "member task statistics",
      "member level L1",
      "member data {}",
      "member framework mindspore",
      "data task=statistics level=L1 framework=mindspore",
      "entry Functional.relu.0.forward {'input_args': [{'type': 'torch.Tensor', 'Max': nan}]}",
      "entry Torch.abs.0.forward [inf, -inf, None]",
  };
  EXPECT_EQ(recorder.log, expected);
  EXPECT_EQ(header->framework, "mindspore");
}

// The header as msprobe reads the dict: a repeated key keeps its last value, a task of any type
// counts by its truthiness and reads as str() (Python: str(float('nan')) == 'nan').
TEST(DumpJsonReaderTest, ReadsTheHeaderAsMsprobeDoes) {
  const auto header = [](std::string_view text) {
    Recorder recorder;
    auto h = StreamDumpJsonText(text, "dump.json", recorder);
    EXPECT_TRUE(h.ok()) << h.status().ToString();
    return h.ok() ? *h : DumpJsonHeader{};
  };
  EXPECT_EQ(header(R"({"task": "tensor", "task": "statistics", "data": {}})").task, "statistics");
  EXPECT_EQ(header(R"({"task": "tensor", "task": 0, "data": {}})").task, "");
  EXPECT_EQ(header(R"({"task": NaN, "data": {}})").task, "nan");
  EXPECT_EQ(header(R"({"task": [1, "a"], "data": {}})").task, "[1, 'a']");
  EXPECT_EQ(header(R"({"task": null, "data": {}})").task, "");
  const DumpJsonHeader h = header(R"({"level": "L0", "level": "mix", "framework": null})");
  EXPECT_EQ(h.level, "mix");
  EXPECT_EQ(h.framework, "pytorch");  // not a string: compare assumes pytorch
  EXPECT_FALSE(h.has_data);
}

TEST(DumpJsonReaderTest, DataThatIsNotAnObjectIsAMemberWithNoEntries) {
  Recorder recorder;
  auto header = StreamDumpJsonText(R"({"task": "tensor", "data": [{"a": 1}]})", "dump.json", recorder);
  ASSERT_TRUE(header.ok()) << header.status().ToString();
  EXPECT_EQ(recorder.log, (std::vector<std::string>{"member task tensor", "member data [{'a': 1}]"}));
  EXPECT_FALSE(header->has_data);
}

// The byte offsets are where the text goes wrong, counted from 0.
TEST(DumpJsonReaderTest, MalformedInputsAreInvalidInputNamingTheSource) {
  const auto stream = [](std::string_view text) {
    Recorder recorder;
    return StreamDumpJsonText(text, "x/dump.json", recorder).status();
  };
  const auto expect = [&](std::string_view text, std::string_view message) {
    const Status st = stream(text);
    EXPECT_EQ(st.code(), Code::kInvalidInput) << text;
    EXPECT_EQ(st.source(), "x/dump.json") << text;
    EXPECT_EQ(st.message(), message) << text;
  };
  expect("", "empty file, expected JSON");
  expect(" [1, 2]", "top level is not a JSON object");
  expect(R"({"data": {"a": 1,}})", "invalid JSON at byte 17: The document is empty.");  // RapidJSON's words
  expect(R"({"data": {"a": 1})", "invalid JSON at byte 17: expected '}' before the end of the file");
  expect(R"({"data": {"a" 1}})", "invalid JSON at byte 14: expected ':'");
  expect(R"({"data": {1: 2}})", "invalid JSON at byte 11: an object key is not a string");
  expect(R"({"data": {"a": [1, 2}})", "invalid JSON at byte 20: Missing a comma or ']' after an array element.");
  expect(R"({"data": {}} x)", "invalid JSON at byte 13: unexpected text after the top-level object");
  // A top-level member nested as deep as json.load refuses (1000 levels below the top), before or after "data".
  const std::string deep = std::string(1000, '[') + std::string(1000, ']');
  EXPECT_TRUE(stream(R"({"x": )" + deep + R"(, "data": {}})").ok());
  expect(R"({"data": {}, "x": [)" + deep + "]}", "JSON nested deeper than 1000 levels");
}

TEST(DumpJsonReaderTest, AVisitorErrorStopsTheReading) {
  Recorder recorder("B");
  const Status st = StreamDumpJsonText(R"({"data": {"A": 1, "B": 2, "C": 3}, "task": "tensor"})", "dump.json",
                                       recorder).status();
  EXPECT_EQ(st.ToString(), "visitor: refused B");
  EXPECT_EQ(recorder.log, (std::vector<std::string>{"member data {}", "data task= level= framework=pytorch",
                                                    "entry A 1"}));
}

// verify reads the members after "data" too, and its records do not depend on where they are.
TEST(DumpJsonReaderTest, ReadDumpJsonTakesTheHeaderFromAnywhere) {
  auto dump = ReadDumpJsonText(R"({"data": {"x.0.debug": {"type": "torch.Tensor", "dtype": "torch.int64",
      "shape": [4], "Max": 3, "Min": 0, "Mean": 1.5, "Norm": 3.7416573867739413, "data_name": "x.0.debug.pt"}},
      "task": "tensor", "level": "debug"})", "debug.json");
  ASSERT_TRUE(dump.ok()) << dump.status().ToString();
  EXPECT_EQ(dump->path, "debug.json");
  EXPECT_EQ(dump->task, "tensor");
  EXPECT_EQ(dump->level, "debug");
  EXPECT_EQ(dump->framework, "pytorch");
  ASSERT_EQ(dump->tensors.size(), 1u);
  EXPECT_EQ(dump->tensors[0].entry, "x.0.debug");
  EXPECT_EQ(dump->tensors[0].shape, (std::vector<int64_t>{4}));
  EXPECT_EQ(dump->tensors[0].norm.number, 3.7416573867739413);
  EXPECT_STATUS(ReadDumpJsonText(R"({"task": "tensor", "data": 1})", "d.json"), Code::kInvalidInput,
                "no \"data\" object");
}

}  // namespace
}  // namespace msprobe
