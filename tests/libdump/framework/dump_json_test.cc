#include "msprobe/dump/framework/dump_json.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <set>

#include "test_support.h"

namespace msprobe {
namespace {

bool SameStat(const RecordedStat& a, const RecordedStat& b) {
  return a.kind == b.kind && (a.number == b.number || (std::isnan(a.number) && std::isnan(b.number)));
}

// The records of the streaming reader and of the reader over a parsed document agree.
void ExpectSameRecords(const std::vector<TensorRecord>& streamed, const std::vector<TensorRecord>& parsed) {
  ASSERT_EQ(streamed.size(), parsed.size());
  for (size_t i = 0; i < streamed.size(); ++i) {
    const TensorRecord &a = streamed[i], &b = parsed[i];
    EXPECT_EQ(a.entry, b.entry);
    EXPECT_EQ(a.path, b.path) << a.entry;
    EXPECT_EQ(a.type, b.type) << a.entry;
    EXPECT_EQ(a.dtype, b.dtype) << a.entry;
    EXPECT_EQ(a.shape, b.shape) << a.entry;
    EXPECT_TRUE(SameStat(a.max, b.max) && SameStat(a.min, b.min) && SameStat(a.mean, b.mean) &&
                SameStat(a.norm, b.norm)) << a.entry << "." << a.path;
    EXPECT_EQ(a.md5, b.md5) << a.entry;
    EXPECT_EQ(a.data_name, b.data_name) << a.entry;
  }
}

// Reads `text` streamed and as a parsed document: both give the same dump or the same error.
Result<DumpJson> Parse(std::string_view text) {
  Result<DumpJson> streamed = ReadDumpJsonText(text, "dump.json");
  Result<JsonDocument> doc = ParseJsonText(text, "dump.json");
  if (!doc.ok()) return doc.status();
  Result<DumpJson> parsed = ParseDumpJson(*doc, "dump.json");
  EXPECT_EQ(streamed.status().ToString(), parsed.status().ToString());
  if (streamed.ok() && parsed.ok()) {
    EXPECT_EQ(streamed->task, parsed->task);
    EXPECT_EQ(streamed->level, parsed->level);
    EXPECT_EQ(streamed->framework, parsed->framework);
    ExpectSameRecords(streamed->tensors, parsed->tensors);
  }
  return streamed;
}

TEST(DumpJsonTest, CollectsNestedTensorsWithTheirPlace) {
  auto dump = Parse(R"({"task": "tensor", "level": "L1", "framework": "pytorch", "dump_data_dir": null, "data": {
    "Distributed.all_gather.0.forward": {"input_args": [null, {"type": "torch.Tensor", "dtype": "torch.float32",
      "shape": [2], "Max": 1.0, "Min": -1.0, "Mean": 0.0, "Norm": 1.4142135623730951, "requires_grad": false,
      "data_name": "Distributed.all_gather.0.forward.input.1.pt"}],
     "input_kwargs": {"group": {"type": "torch.ProcessGroup", "group_ranks": [0, 1], "group_id": "77849d8c"}},
     "output": [[{"type": "torch.Tensor", "dtype": "torch.bool", "shape": [], "Max": true, "Min": false,
                  "Mean": null, "Norm": null, "requires_grad": false}]]}}})");
  ASSERT_TRUE(dump.ok()) << dump.status().ToString();
  EXPECT_EQ(dump->task, "tensor");
  ASSERT_EQ(dump->tensors.size(), 2u);
  const TensorRecord& a = dump->tensors[0];
  EXPECT_EQ(a.entry, "Distributed.all_gather.0.forward");
  EXPECT_EQ(a.path, "input_args.1");
  EXPECT_EQ(a.shape, (std::vector<int64_t>{2}));
  EXPECT_EQ(a.max.kind, RecordedStat::Kind::kNumber);
  EXPECT_EQ(a.norm.number, 1.4142135623730951);
  EXPECT_EQ(a.data_name, "Distributed.all_gather.0.forward.input.1.pt");
  const TensorRecord& b = dump->tensors[1];
  EXPECT_EQ(b.path, "output.0.0");
  EXPECT_TRUE(b.shape.empty());
  EXPECT_EQ(b.max.kind, RecordedStat::Kind::kBool);
  EXPECT_EQ(b.max.number, 1);
  EXPECT_EQ(b.mean.kind, RecordedStat::Kind::kNull);
  EXPECT_FALSE(b.data_name.has_value());
}

TEST(DumpJsonTest, AcceptsBareNanAndInfinityTokens) {
  auto dump = Parse(R"({"task": "statistics", "level": "L1", "data": {"Torch.div.0.forward": {"output": [
    {"type": "torch.Tensor", "dtype": "torch.float16", "shape": [1], "Max": Infinity, "Min": -Infinity,
     "Mean": NaN, "Norm": Infinity, "requires_grad": false, "md5": "2bcb8d87"}]}}})");
  ASSERT_TRUE(dump.ok()) << dump.status().ToString();
  EXPECT_EQ(dump->framework, "pytorch");  // missing framework defaults to pytorch, as compare does
  const TensorRecord& t = dump->tensors.at(0);
  EXPECT_TRUE(std::isinf(t.max.number) && t.max.number > 0);
  EXPECT_TRUE(std::isinf(t.min.number) && t.min.number < 0);
  EXPECT_TRUE(std::isnan(t.mean.number));
  EXPECT_EQ(t.md5, "2bcb8d87");
}

// RapidJSON's default number parsing can be 1 ulp off; msprobe's values are exact Python doubles.
TEST(DumpJsonTest, NumbersParseToTheNearestDouble) {
  auto doc = ParseJsonText("[-0.040683943778276443, 2.789699077606201, 0.0013313378440216184]", "t");
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ((*doc)[0].GetDouble(), -0.040683943778276443);
  EXPECT_EQ((*doc)[1].GetDouble(), 2.789699077606201);
  EXPECT_EQ((*doc)[2].GetDouble(), 0.0013313378440216184);
}

// Expected values are Python's json.loads of the same text. The first input made RapidJSON's own
// full-precision strtod read out of bounds (found by the flatten fuzzer).
TEST(DumpJsonTest, ExtremeNumbersParseAsPythonDoes) {
  auto doc = ParseJsonText(
      "[0.00000000001e-2147483639, 1e-400, 18446744073709551616, -9223372036854775809, 4.9e-324, "
      "2.2250738585072011e-308, 123456789012345678901234567890.5e-10, -0, 18446744073709551615]",
      "t");
  ASSERT_TRUE(doc.ok()) << doc.status().ToString();
  const auto& a = *doc;
  EXPECT_EQ(a[0].GetDouble(), 0.0);
  EXPECT_EQ(a[1].GetDouble(), 0.0);
  EXPECT_EQ(a[2].GetDouble(), 1.8446744073709552e+19);
  EXPECT_EQ(a[3].GetDouble(), -9.223372036854776e+18);
  EXPECT_EQ(a[4].GetDouble(), 5e-324);
  EXPECT_EQ(a[5].GetDouble(), 2.225073858507201e-308);
  EXPECT_EQ(a[6].GetDouble(), 1.2345678901234567e+19);
  ASSERT_TRUE(a[7].IsInt());
  EXPECT_EQ(a[7].GetInt(), 0);
  ASSERT_TRUE(a[8].IsUint64());
  EXPECT_EQ(a[8].GetUint64(), 18446744073709551615u);
}

TEST(DumpJsonTest, DebugJsonBareTensorValue) {
  auto dump = Parse(R"({"task": "tensor", "level": "debug", "framework": "pytorch", "data": {
    "x2.0.debug": {"type": "torch.Tensor", "dtype": "torch.float32", "shape": [3, 2], "Max": 0.5,
                   "requires_grad": true, "data_name": "x2.0.debug.pt"}}})");
  ASSERT_TRUE(dump.ok());
  ASSERT_EQ(dump->tensors.size(), 1u);
  EXPECT_EQ(dump->tensors[0].entry, "x2.0.debug");
  EXPECT_EQ(dump->tensors[0].path, "");
}

TEST(DumpJsonTest, MalformedInputsAreClearErrors) {
  EXPECT_STATUS(ParseJsonText(R"({"data": {"a": [1, 2)", "dump.json"), Code::kInvalidInput, "invalid JSON at byte");
  EXPECT_STATUS(ParseJsonText(R"({"data": {}} trailing)", "dump.json"), Code::kInvalidInput, "invalid JSON");
  EXPECT_STATUS(Parse(R"([1, 2])"), Code::kInvalidInput, "not a JSON object");
  EXPECT_STATUS(Parse(R"({"task": "tensor"})"), Code::kInvalidInput, "no \"data\" object");
  EXPECT_STATUS(Parse(R"({"data": {"a": {"type": "torch.Tensor", "dtype": "torch.float32", "shape": "3"}}})"),
                Code::kInvalidInput, "\"shape\" is not a list");
  EXPECT_STATUS(Parse(R"({"data": {"a": {"type": "torch.Tensor", "dtype": "torch.float32", "shape": [1],
                "data_name": 7}}})"), Code::kInvalidInput, "\"data_name\" is not a string");
  std::string deep = R"({"data": {"a": {"input_args": )" + std::string(500, '[') + std::string(500, ']') + "}}}";
  EXPECT_STATUS(Parse(deep), Code::kInvalidInput, "deeper than 400");
}

TEST(DumpJsonTest, ReadsEverySharedSampleDump) {
  MSP_REQUIRE_SHARED(root, "msprobe_samples");
  int files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    const std::string name = entry.path().filename().string();
    if (name != "dump.json" && name != "debug.json") continue;
    auto dump = ReadDumpJson(entry.path().string());
    ASSERT_TRUE(dump.ok()) << dump.status().ToString();
    EXPECT_FALSE(dump->task.empty()) << entry.path();
    auto doc = ReadJsonFile(entry.path().string());
    ASSERT_TRUE(doc.ok()) << doc.status().ToString();
    auto parsed = ParseDumpJson(*doc, entry.path().string());
    ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
    ExpectSameRecords(dump->tensors, parsed->tensors);
    ++files;
  }
  EXPECT_GE(files, 20);
}

TEST(DumpJsonTest, TensorDumpNamesEveryFileOnce) {
  MSP_REQUIRE_SHARED(dir, "msprobe_samples/single_proc/t_l1/step0/proc15975");
  auto dump = ReadDumpJson(dir + "/dump.json");
  ASSERT_TRUE(dump.ok()) << dump.status().ToString();
  std::set<std::string> names;
  for (const TensorRecord& t : dump->tensors) {
    if (t.data_name) names.insert(*t.data_name);
  }
  size_t on_disk = 0;
  for (const auto& f : std::filesystem::directory_iterator(dir + "/dump_tensor_data")) {
    EXPECT_TRUE(names.count(f.path().filename().string())) << f.path();
    ++on_disk;
  }
  EXPECT_EQ(names.size(), on_disk);
}

TEST(DumpJsonTest, ReadsTheGpuExampleWithRecomputeFlags) {
  MSP_REQUIRE_SHARED(json, "msprobe_examples/examples/quick_start/gpu_dump/step0/proc2016/dump.json");
  auto dump = ReadDumpJson(json);
  ASSERT_TRUE(dump.ok()) << dump.status().ToString();
  EXPECT_EQ(dump->level, "mix");
  EXPECT_GT(dump->tensors.size(), 1000u);
  EXPECT_EQ(dump->tensors[0].entry, "Functional.conv2d.0.forward");
  EXPECT_EQ(dump->tensors[0].shape, (std::vector<int64_t>{32, 3, 224, 224}));
  EXPECT_EQ(dump->tensors[0].mean.number, 0.4993983507156372);
}

// msprobe writes an API call's entry as an object; only a debug.json name and a parameters_grad
// entry hold lists or values (docs/compare.md §2.3). Anything else is a malformed dump, refused alike
// by every reader.
TEST(DumpJsonTest, AnEntryIsAnObjectUnlessDebugOrParametersGrad) {
  auto values = ParseJsonText(R"({"obj": {}, "null": null, "list": [1], "number": 2})", "t.json");
  ASSERT_TRUE(values.ok());
  const JsonValue& v = *values;
  EXPECT_TRUE(CheckEntryShape("Functional.linear.0.forward", v["obj"], "d.json").ok());
  for (const char* key : {"loss.0.debug", "Module.fc.Linear.parameters_grad.0", "Module.fc.Linear.parameters_grad"}) {
    EXPECT_TRUE(CheckEntryShape(key, v["list"], "d.json").ok()) << key;
    EXPECT_TRUE(CheckEntryShape(key, v["number"], "d.json").ok()) << key;
  }
  for (const char* member : {"null", "list", "number"}) {
    const Status s = CheckEntryShape("Functional.linear.0.forward", v[member], "d.json");
    EXPECT_EQ(s.ToString(), "d.json: entry 'Functional.linear.0.forward' is not an object") << member;
  }
}

}  // namespace
}  // namespace msprobe
