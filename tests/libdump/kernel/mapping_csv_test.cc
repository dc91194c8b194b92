#include "msprobe/dump/kernel/mapping_csv.h"

#include <gtest/gtest.h>

#include "msprobe/dump/text/csv_reader.h"
#include "test_support.h"

namespace msprobe {
namespace {

TEST(MappingCsvTest, WithAndWithoutHeader) {
  auto m = ParseMappingCsv("123.npy,Add.op.0.0.1.output.0.ND.FLOAT.npy\n", "mapping.csv");
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->at("123.npy"), "Add.op.0.0.1.output.0.ND.FLOAT.npy");
  auto h = ParseMappingCsv("Index,Name\n123.BF16,Add.op.0.0.1.output.0.ND.BF16\n", "mapping.csv");
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->size(), 1u);
  EXPECT_EQ(h->at("123.BF16"), "Add.op.0.0.1.output.0.ND.BF16");
}

TEST(MappingCsvTest, RowOfThreeFields) {
  EXPECT_STATUS(ParseMappingCsv("a.npy,Add.op.0.0.1.output.0.ND.FLOAT.npy\nb,c,d\n", "mapping.csv"), Code::kInvalidInput,
                "line 2: expected 2 fields");
  EXPECT_STATUS(ParseMappingCsv("a.npy,Add.op.0.0.1.output.0.ND.FLOAT.npy\n../x,y\n", "mapping.csv"),
                Code::kInvalidInput, "plain file names");
}

TEST(MappingCsvTest, TrailingCommaAndCrLf) {
  auto m = ParseMappingCsv("a.npy,Add.op.0.0.1.output.0.ND.FLOAT.npy,\r\nb.npy,Add.op.0.0.2.input.0.ND.FLOAT.npy\r\n",
                           "mapping.csv");
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->size(), 2u);
  EXPECT_EQ(m->at("b.npy"), "Add.op.0.0.2.input.0.ND.FLOAT.npy");
}

TEST(MappingCsvTest, RecordOfTooManyFields) {
  std::string wide = "x";
  for (size_t i = 0; i < kMaxCsvFields; ++i) wide += ",x";
  EXPECT_STATUS(ParseMappingCsv(wide + "\n", "mapping.csv"), Code::kInvalidInput, "line 1: more than 4096 fields");
}

// The fixture's mapping.csv (tests/data/kernel/gen_kernel_fixtures.py), as MindSpore writes it.
TEST(MappingCsvTest, ReadsTheFixture) {
  auto m = ReadMappingCsv(testing::TestData("kernel/npu/rank_0/Net/0/0/mapping.csv"));
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  ASSERT_EQ(m->size(), 1u);
  const std::string& original = m->at("12345678901234567890123456789012.npy");
  EXPECT_TRUE(original.starts_with("MatMul.Default_network-WithLossCell__backbone-VeryLongCellName_"));
  EXPECT_TRUE(original.ends_with("_MatMul-op7.0.0.450.output.0.DefaultFormat.float32.npy"));
}

// The bytes Python's csv.writer(f, lineterminator="\n") writes for the same rows.
TEST(MappingCsvTest, AppendQuotesAsPythonAndReadsBack) {
  testing::TempDir tmp;
  const std::string path = tmp.Path("mapping.csv");
  ASSERT_TRUE(AppendMappingCsv(path, {{"abc.npy", "A.x,y.0.0.1.output.0.ND.FLOAT.npy"},
                                      {"q.npy", "A.say\"hi\".0.0.1.output.0.ND.FLOAT.npy"}})
                  .ok());
  EXPECT_EQ(testing::ReadFile(path),
            "abc.npy,\"A.x,y.0.0.1.output.0.ND.FLOAT.npy\"\nq.npy,\"A.say\"\"hi\"\".0.0.1.output.0.ND.FLOAT.npy\"\n");
  auto m = ReadMappingCsv(path);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->at("abc.npy"), "A.x,y.0.0.1.output.0.ND.FLOAT.npy");
  EXPECT_EQ(m->at("q.npy"), "A.say\"hi\".0.0.1.output.0.ND.FLOAT.npy");
}

// Reruns of msprobe-convert write the same hashed names: rows already there are not repeated, and the
// rows of another writer (a header, no final newline) are kept as they are.
TEST(MappingCsvTest, AppendKeepsRowsAlreadyThere) {
  testing::TempDir tmp;
  const std::string path = tmp.Path("mapping.csv");
  testing::WriteFile(path, "Index,Name\n1.npy,Add.op.0.0.1.output.0.ND.FLOAT.npy");
  ASSERT_TRUE(AppendMappingCsv(path, {{"1.npy", "Add.op.0.0.1.output.0.ND.FLOAT.npy"},
                                      {"2.npy", "Add.op.0.0.2.output.0.ND.FLOAT.npy"}})
                  .ok());
  ASSERT_TRUE(AppendMappingCsv(path, {{"2.npy", "Add.op.0.0.2.output.0.ND.FLOAT.npy"}}).ok());
  EXPECT_EQ(testing::ReadFile(path),
            "Index,Name\n1.npy,Add.op.0.0.1.output.0.ND.FLOAT.npy\n2.npy,Add.op.0.0.2.output.0.ND.FLOAT.npy\n");
}

TEST(MappingCsvTest, AppendRefusesAMalformedFile) {
  testing::TempDir tmp;
  const std::string path = tmp.Path("mapping.csv");
  testing::WriteFile(path, "a.npy,Add.op.0.0.1.output.0.ND.FLOAT.npy\nb,c,d\n");
  EXPECT_STATUS(AppendMappingCsv(path, {{"2.npy", "Add.op.0.0.2.output.0.ND.FLOAT.npy"}}), Code::kInvalidInput,
                "line 2: expected 2 fields");
}

}  // namespace
}  // namespace msprobe
