#include "msprobe/dump/kernel/statistic_csv.h"

#include <gtest/gtest.h>

#include "test_support.h"

namespace msprobe {
namespace {

// docs/kernel_dump.md §4.5 a: MindSpore's header, quoted shapes, a trailing comma on each data row.
TEST(StatisticCsvTest, MindSporeQuotedShapeAndTrailingComma) {
  const std::string text =
      "Op Type,Op Name,Task ID,Stream ID,Timestamp,IO,Slot,Data Size,Data Type,Shape,Max Value,Min Value,L2Norm Value\n"
      "Add,Default_Add-op0,0,0,100,input,0,24,float32,\"(2,3)\",2.5,-1,3.25,\n";
  Result<StatisticCsv> csv = ParseStatisticCsv(text, "statistic.csv");
  ASSERT_TRUE(csv.ok()) << csv.status().ToString();
  ASSERT_EQ(csv->rows.size(), 1u);
  EXPECT_EQ(csv->rows[0].size(), 13u);
  const std::vector<StatisticRecord> r = StatisticRecords(*csv);
  EXPECT_EQ(r[0].shape, "(2,3)");
  EXPECT_EQ(r[0].io, "input");
  EXPECT_EQ(r[0].max, "2.5");
  EXPECT_EQ(r[0].norm, "3.25");
  EXPECT_EQ(r[0].mean, "");  // not configured
}

// §4.5 b: msprobe L2 writes (2,3,4) unquoted; the fields are re-joined.
TEST(StatisticCsvTest, MsprobeUnquotedShapeIsRejoined) {
  const std::string text =
      "Op Type,Op Name,Task ID,Stream ID,Timestamp,Input/Output,Slot,Data Size,Data Type,Format,Shape,Max Value,"
      "Min Value,Avg Value,L2Norm Value,NaN Count,Negative Inf Count,Positive Inf Count,MD5 Value\n"
      "Cast,Default_Cast-op0,9,10,1735011096426349,input,0,48,FLOAT16,ND,(2,3,4),1,0,0.5,2,0,0,0,abc\n"
      "Cast,Default_Cast-op0,9,10,1735011096426350,output,0,4,FLOAT16,ND,(2),1,0,0.5,2,0,0,0,abc\n";
  Result<StatisticCsv> csv = ParseStatisticCsv(text, "statistic.csv");
  ASSERT_TRUE(csv.ok()) << csv.status().ToString();
  const std::vector<StatisticRecord> r = StatisticRecords(*csv);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].shape, "(2,3,4)");
  EXPECT_EQ(r[0].io, "input");
  EXPECT_EQ(r[0].max, "1");
  EXPECT_EQ(r[0].norm, "2");
  EXPECT_EQ(r[1].shape, "(2)");
}

// §4.5 c: ACL's device-side per-op file.
TEST(StatisticCsvTest, AclDeviceSideHeader) {
  const std::string text =
      "Input/Output,Index,Data Size,Data Type,Format,Shape,Max Value,Min Value,Avg Value,l2norm\r\n"
      "Input,0,8,DT_FLOAT,ND,2,1,0,0.5,1\r\n";
  Result<StatisticCsv> csv = ParseStatisticCsv(text, "Add.op.1.2.3.csv");
  ASSERT_TRUE(csv.ok()) << csv.status().ToString();
  const std::vector<StatisticRecord> r = StatisticRecords(*csv);
  EXPECT_EQ(r[0].io, "Input");
  EXPECT_EQ(r[0].slot, "0");
  EXPECT_EQ(r[0].norm, "1");
}

// §4.5 d: ATB's 15 columns.
TEST(StatisticCsvTest, AtbHeader) {
  const std::string text =
      "Device and PID,Execution Count,Op Name,Op Type,Op Id,Input/Output,Index,Dtype,Format,Shape,Max,Min,Mean,Norm,"
      "Tensor Path\n0_123,1,Linear,LinearOperation,0_1,input,0,float16,nd,\"2,3\",1,0,0.5,1.5,N/A\n";
  Result<StatisticCsv> csv = ParseStatisticCsv(text, "statistic.csv");
  ASSERT_TRUE(csv.ok()) << csv.status().ToString();
  const std::vector<StatisticRecord> r = StatisticRecords(*csv);
  EXPECT_EQ(r[0].dtype, "float16");
  EXPECT_EQ(r[0].mean, "0.5");
  EXPECT_EQ(r[0].norm, "1.5");
}

TEST(StatisticCsvTest, RowWithTooFewFieldsNamesItsLine) {
  const std::string text = "A,B,C\n1,2,3\n1,2\n";
  EXPECT_STATUS(ParseStatisticCsv(text, "statistic.csv"), Code::kInvalidInput, "line 3: row has 2 fields, the header has 3");
}

TEST(StatisticCsvTest, UnterminatedQuote) {
  EXPECT_STATUS(ParseStatisticCsv("A,B\n1,\"(2,3\n", "statistic.csv"), Code::kInvalidInput, "line 2: quoted field is not closed");
}

TEST(StatisticCsvTest, TextAfterClosingQuote) {
  EXPECT_STATUS(ParseStatisticCsv("A,B\n1,\"x\"y\n", "statistic.csv"), Code::kInvalidInput,
                "line 2: character 'y' after a closing quote");
}

TEST(StatisticCsvTest, EmptyFile) {
  EXPECT_STATUS(ParseStatisticCsv("", "statistic.csv"), Code::kInvalidInput, "no header line");
}

TEST(StatisticCsvTest, QuotedNewlineAndEscapedQuote) {
  Result<StatisticCsv> r = ParseStatisticCsv("a,\"x\"\"y\nz\"\nb,c\n", "t.csv");
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->rows.size(), 1u);
  EXPECT_EQ(r->header[1], "x\"y\nz");
  EXPECT_EQ(r->row_lines[0], 3u);
}

// The writer's rows (MindSpore's §4.5 a): every field followed by ',', the shape quoted, no values
// for an empty tensor; a name holding ',' is quoted, as Python's csv module quotes it, and reads back.
TEST(StatisticCsvTest, WrittenRowsReadBack) {
  Result<KernelDumpName> name = ParseKernelDumpName("Add.a,b.0.0.1.input.0.ND.FLOAT.npy");
  ASSERT_TRUE(name.ok()) << name.status().ToString();
  TensorInfo info;
  info.dtype = DType::kF32;
  info.shape = {2, 0};
  TensorStats stats;
  std::string text(kStatisticCsvHeader);
  AppendStatisticCsvRow(&text, *name, info, stats);
  EXPECT_TRUE(text.ends_with("\nAdd,\"a,b\",0,0,1,input,0,0,float32,\"(2,0)\",,,,0,0,0,0,0,,\n")) << text;
  Result<StatisticCsv> csv = ParseStatisticCsv(text, "statistic.csv");
  ASSERT_TRUE(csv.ok()) << csv.status().ToString();
  ASSERT_EQ(csv->rows.size(), 1u);
  const std::vector<StatisticRecord> r = StatisticRecords(*csv);
  EXPECT_EQ(r[0].op_name, "a,b");
  EXPECT_EQ(r[0].shape, "(2,0)");
  EXPECT_EQ(r[0].max, "");
}

TEST(StatisticCsvTest, RecordOfTooManyFields) {
  std::string wide = "A\n1";
  for (size_t i = 0; i < 4096; ++i) wide += ",1";
  EXPECT_STATUS(ParseStatisticCsv(wide + "\n", "statistic.csv"), Code::kInvalidInput, "line 2: more than 4096 fields");
}

// A UTF-8 BOM before the header (Excel's "CSV UTF-8") does not hide the first column's name.
TEST(StatisticCsvTest, ByteOrderMarkBeforeTheHeader) {
  Result<StatisticCsv> csv = ParseStatisticCsv("\xEF\xBB\xBFOp Type,Op Name\nAdd,x\n", "statistic.csv");
  ASSERT_TRUE(csv.ok()) << csv.status().ToString();
  EXPECT_EQ(StatisticRecords(*csv)[0].op_type, "Add");
}

}  // namespace
}  // namespace msprobe
