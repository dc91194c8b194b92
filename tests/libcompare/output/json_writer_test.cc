#include "msprobe/compare/output/json_writer.h"

#include <cmath>
#include <filesystem>
#include <limits>

#include "msprobe/dump/text/json_file.h"
#include "test_support.h"

namespace msprobe::compare {
namespace {

using testing::ReadFile;
using testing::TempDir;

ResultTable TensorTable() {
  ResultTable t;
  t.mode = CompareMode::kTensor;
  ResultRow r;
  r.target_name = r.golden_name = "Functional.relu.0.forward.input.0";
  r.target_dtype = r.golden_dtype = "torch.float32";
  r.target_shape = r.golden_shape = "[2, 3]";
  r.target_requires_grad = r.golden_requires_grad = "False";
  r.metrics = {Cell::Float(1.0), Cell::Float(1e-05), Cell::Float(std::numeric_limits<double>::infinity()),
               Cell::Float(std::nan("")), Cell::Int(1), Cell::Text("N/A")};
  r.target_stats = {Cell::Float(2.5), Cell::Int(-3), Cell::Text("Nan"), Cell::Text("None")};
  r.golden_stats = r.target_stats;
  r.requires_grad_consistent = true;
  r.result = Verdict::kWarning;
  r.err_messages = {"warning: \"quoted\""};
  r.target_data_name = r.golden_data_name = "Functional.relu.0.forward.input.0.pt";
  t.rows.push_back(r);
  return t;
}

TEST(JsonWriterTest, WritesModeHeaderAndTypedRows) {
  TempDir tmp;
  const std::string out = tmp.Path("compare_result.json");
  ASSERT_TRUE(WriteJson(out, TensorTable()).ok());
  const std::string text = ReadFile(out);
  // Strict JSON: Python's bare tokens never appear.
  EXPECT_EQ(text.find("NaN"), std::string::npos);
  EXPECT_EQ(text.find("Infinity"), std::string::npos);

  auto doc = ParseJsonText(text, out);
  ASSERT_TRUE(doc.ok()) << doc.status().ToString();
  EXPECT_STREQ((*doc)["mode"].GetString(), "ALL");
  const JsonValue& header = (*doc)["header"];
  ASSERT_EQ(header.Size(), 26u);
  EXPECT_STREQ(header[8].GetString(), "Cosine");
  EXPECT_STREQ(header[25].GetString(), "Data_name");
  const JsonValue& rows = (*doc)["rows"];
  ASSERT_EQ(rows.Size(), 1u);
  const JsonValue& row = rows[0];
  ASSERT_EQ(row.Size(), 26u);
  EXPECT_STREQ(row[0].GetString(), "Functional.relu.0.forward.input.0");
  EXPECT_TRUE(row[8].IsDouble());
  EXPECT_EQ(row[8].GetDouble(), 1.0);
  EXPECT_EQ(row[9].GetDouble(), 1e-05);
  EXPECT_STREQ(row[10].GetString(), "inf");
  EXPECT_STREQ(row[11].GetString(), "nan");
  EXPECT_TRUE(row[12].IsInt64());
  EXPECT_STREQ(row[13].GetString(), "N/A");
  EXPECT_EQ(row[15].GetInt64(), -3);
  EXPECT_TRUE(row[22].IsBool());
  EXPECT_TRUE(row[22].GetBool());
  EXPECT_STREQ(row[23].GetString(), "warning");
  EXPECT_STREQ(row[24].GetString(), R"(["warning: \"quoted\""])");
  EXPECT_STREQ(row[25].GetString(),
               "['Functional.relu.0.forward.input.0.pt', 'Functional.relu.0.forward.input.0.pt']");
  // Numbers keep Python's repr digits, one row per line.
  EXPECT_NE(text.find("[\"Functional.relu.0.forward.input.0\",\"Functional.relu.0.forward.input.0\","
                      "\"torch.float32\",\"torch.float32\",\"[2, 3]\",\"[2, 3]\",\"False\",\"False\","
                      "1.0,1e-05,\"inf\",\"nan\",1,\"N/A\",2.5,-3,"),
            std::string::npos)
      << text;
}

// Rows rendered elsewhere (a statistics slice's, docs/distributed.md §3.1) and appended after the
// stream's own give the file the whole table gives.
TEST(JsonWriterTest, RowsRenderedElsewhereGiveTheSameFile) {
  TempDir tmp;
  ResultTable whole = TensorTable();
  for (int i = 0; i < 4; ++i) whole.rows.push_back(whole.rows[0]);
  whole.rows[2].target_name = "a,\"b\"\n";
  ASSERT_TRUE(WriteJson(tmp.Path("whole.json"), whole).ok());
  auto stream = JsonResultStream::Open(tmp.Path("parts.json"), whole.mode, whole.Header());
  ASSERT_TRUE(stream.ok());
  ResultTable first = whole, rest = whole;
  first.rows.resize(2);
  rest.rows.erase(rest.rows.begin(), rest.rows.begin() + 2);
  ASSERT_TRUE(stream->Append(first).ok());
  RenderedRows rendered;
  JsonResultStream::Render(rest, &rendered);
  ASSERT_TRUE(stream->AppendRendered(rendered).ok());
  ASSERT_TRUE(std::move(*stream).Commit().ok());
  EXPECT_EQ(ReadFile(tmp.Path("parts.json")), ReadFile(tmp.Path("whole.json")));
}

TEST(JsonWriterTest, EmptyTableIsValidJson) {
  TempDir tmp;
  ResultTable t;
  t.mode = CompareMode::kMd5;
  t.with_stack = true;
  ASSERT_TRUE(WriteJson(tmp.Path("e.json"), t).ok());
  auto doc = ParseJsonText(ReadFile(tmp.Path("e.json")), "e.json");
  ASSERT_TRUE(doc.ok()) << doc.status().ToString();
  EXPECT_STREQ((*doc)["mode"].GetString(), "MD5");
  EXPECT_EQ((*doc)["header"].Size(), 14u);
  EXPECT_EQ((*doc)["rows"].Size(), 0u);
}

TEST(JsonWriterTest, FailureLeavesNoFile) {
  TempDir tmp;
  EXPECT_STATUS(WriteJson(tmp.Path("no/such/dir.json"), TensorTable()), Code::kIOError, "cannot create");
  EXPECT_FALSE(std::filesystem::exists(tmp.Path("no")));
}

}  // namespace
}  // namespace msprobe::compare
