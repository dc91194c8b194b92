#include "msprobe/compare/output/csv_writer.h"

#include <cmath>
#include <filesystem>
#include <limits>
#include <sstream>

#include "test_support.h"

namespace msprobe::compare {
namespace {

using testing::ReadFile;
using testing::TempDir;

// A statistics-mode row whose target and golden sides share name, dtype and shape unless changed.
ResultRow StatsRow(const std::string& name, const std::string& target_dtype, const std::string& golden_dtype,
                   const std::string& shape, const std::string& requires_grad, std::vector<Cell> diffs,
                   std::array<Cell, 4> target, std::array<Cell, 4> golden) {
  ResultRow r;
  r.target_name = r.golden_name = name;
  r.target_dtype = target_dtype;
  r.golden_dtype = golden_dtype;
  r.target_shape = r.golden_shape = shape;
  r.target_requires_grad = r.golden_requires_grad = requires_grad;
  r.metrics = std::move(diffs);
  r.target_stats = std::move(target);
  r.golden_stats = std::move(golden);
  r.requires_grad_consistent = true;
  return r;
}

std::vector<Cell> Zeros(int n) { return std::vector<Cell>(n, Cell::Int(0)); }
std::array<Cell, 4> Floats(double a, double b, double c, double d) {
  return {Cell::Float(a), Cell::Float(b), Cell::Float(c), Cell::Float(d)};
}

// The stack column of the first row of msprobe's dist2_da rank0 CSV (str(list), with \n escapes).
constexpr char kConvStack[] =
    R"(['File /usr/lib/python3/dist-packages/torch/nn/modules/conv.py, line 459, in _conv_forward, \n return F.conv2d(input, weight, bias, self.stride,', )"
    R"('File /usr/lib/python3/dist-packages/torch/nn/modules/conv.py, line 463, in forward, \n return self._conv_forward(input, self.weight, self.bias)', )"
    R"('File /usr/lib/python3/dist-packages/torch/nn/modules/module.py, line 1212, in _call_impl, \n result = forward_call(*input, **kwargs)', )"
    R"('File peer_model.py, line 49, in forward, \n x = F.relu(self.conv(x))', )"
    R"('File /usr/lib/python3/dist-packages/torch/nn/modules/module.py, line 1194, in _call_impl, \n return forward_call(*input, **kwargs)', )"
    R"('File peer_model.py, line 95, in <module>, \n probs = model(x)', )"
    R"('File gen_dump.py, line 211, in main, \n exec(compile(src, src_name, "exec"), ns)', )"
    R"('File gen_dump.py, line 223, in <module>, \n sys.exit(main())'])";

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

ResultTable SmallTable(size_t rows) {
  ResultTable t;
  for (size_t i = 0; i < rows; ++i) {
    t.rows.push_back(StatsRow("Functional.relu." + std::to_string(i) + ".forward.input.0", "torch.float32",
                              "torch.float32", "[2]", "False", Zeros(8), Floats(1, 0, 0.5, 1), Floats(1, 0, 0.5, 1)));
  }
  return t;
}

// Rows 1, 2, 4, 11 and 17 of msprobe's own G3 CSV, rebuilt cell by cell with their pandas types.
TEST(CsvWriterTest, MatchesMsprobeG3CsvByteForByte) {
  MSP_REQUIRE_SHARED(dir, "msprobe_samples/dist2_da/cmp");
  std::string sample;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with("compare_result_rank0_") && name.ends_with(".csv")) sample = entry.path().string();
  }
  ASSERT_FALSE(sample.empty());
  const std::vector<std::string> expected = Lines(ReadFile(sample));
  ASSERT_GE(expected.size(), 18u);

  ResultTable t;
  t.mode = CompareMode::kSummary;
  t.with_stack = true;
  ResultRow r1 = StatsRow("Functional.conv2d.0.forward.input.0", "torch.float32", "torch.float32", "[4, 3, 6, 6]",
                          "False", Zeros(8),
                          Floats(2.789699077606201, -3.2784969806671143, -0.040683943778276443, 19.688251495361328),
                          Floats(2.789699077606201, -3.2784969806671143, -0.040683943778276443, 19.688251495361328));
  r1.stack_info = kConvStack;
  t.rows.push_back(r1);
  t.rows.push_back(StatsRow(
      "Functional.conv2d.0.forward.input.1", "torch.float32", "torch.float32", "[4, 3, 3, 3]", "True", Zeros(8),
      Floats(0.1876043677330017, -0.19190657138824463, -0.0007413681014440954, 1.0640689134597778),
      Floats(0.1876043677330017, -0.19190657138824463, -0.0007413681014440954, 1.0640689134597778)));
  const std::array<Cell, 4> ones = {Cell::Int(1), Cell::Int(1), Cell::Int(1), Cell::Int(1)};
  t.rows.push_back(StatsRow("Functional.conv2d.0.forward.input.3.0", "<class 'int'>", "<class 'int'>", "[]", "N/A",
                            Zeros(8), ones, ones));
  ResultRow r11 = StatsRow(
      "Functional.conv2d.0.forward.output.0", "torch.bfloat16", "torch.float32", "[4, 4, 6, 6]", "True",
      {Cell::Float(0.006130099296569824), Cell::Float(-0.0026679039001464844), Cell::Float(-0.0001418739557267068),
       Cell::Float(0.004053115844728339), Cell::Text("0.540337315995773%"), Cell::Text("0.15337015496279233%"),
       Cell::Text("0.12988180496565105%"), Cell::Text("0.03604068102472444%")},
      Floats(1.140625, -1.7421875, -0.109375, 11.25),
      Floats(1.1344949007034302, -1.7395195960998535, -0.10923312604427338, 11.245946884155273));
  r11.result = Verdict::kError;
  r11.err_messages = {"error: The dtype of NPU and Bench are inconsistent."};
  t.rows.push_back(r11);
  ResultRow r17 = StatsRow(
      "Functional.relu.0.forward.output.0", "torch.bfloat16", "torch.float32", "[4, 4, 6, 6]", "True",
      {Cell::Float(0.006130099296569824), Cell::Int(0), Cell::Float(9.432435035705566e-06),
       Cell::Float(0.012431144714355469), Cell::Text("0.540337315995773%"), Cell::Int(0),
       Cell::Text("0.007208589358778324%"), Cell::Text("0.20131183968442457%")},
      Floats(1.140625, 0.0, 0.130859375, 6.1875), Floats(1.1344949007034302, 0.0, 0.1308499425649643, 6.1750688552856445));
  r17.result = Verdict::kError;
  r17.err_messages = {"error: The dtype of NPU and Bench are inconsistent."};
  t.rows.push_back(r17);

  TempDir tmp;
  const std::string out = tmp.Path("compare_result_rank0.csv");
  auto written = WriteCsv(out, t);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  EXPECT_EQ(*written, std::vector<std::string>{out});
  const std::string want =
      expected[0] + "\n" + expected[1] + "\n" + expected[2] + "\n" + expected[4] + "\n" + expected[11] + "\n" +
      expected[17] + "\n";
  EXPECT_EQ(ReadFile(out), want);
}

TEST(CsvWriterTest, FloatInfinityGetsG3LeadingSpace) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(CsvField(Cell::Float(inf)), " inf");
  EXPECT_EQ(CsvField(Cell::Float(-inf)), " -inf");
  EXPECT_EQ(CsvField(Cell::Text("inf")), "inf");  // a string inf stays as it is
  EXPECT_EQ(CsvField(Cell::Float(std::nan(""))), "");  // pandas' na_rep
  EXPECT_EQ(CsvField(Cell::Float(1e-05)), "1e-05");
  EXPECT_EQ(CsvField(Cell::Float(3.0)), "3.0");
  EXPECT_EQ(CsvField(Cell::Int(-7)), "-7");
  EXPECT_EQ(CsvField(Cell::Bool(true)), "True");
  EXPECT_EQ(CsvField(Cell::Bool(false)), "False");
}

TEST(CsvWriterTest, QuotesLikePythonCsvQuoteMinimal) {
  EXPECT_EQ(CsvField(Cell::Text("[4, 3]")), "\"[4, 3]\"");
  EXPECT_EQ(CsvField(Cell::Text(R"(["a", "b"])")), R"("[""a"", ""b""]")");
  EXPECT_EQ(CsvField(Cell::Text("two\nlines")), "\"two\nlines\"");
  EXPECT_EQ(CsvField(Cell::Text("cr\r")), "\"cr\r\"");  // ours: Python 3.11 would leave it bare
  EXPECT_EQ(CsvField(Cell::Text("<class 'int'>")), "<class 'int'>");
  EXPECT_EQ(CsvField(Cell::Text("")), "");
}

TEST(CsvWriterTest, FormulaLikeTextsGetAnApostrophe) {
  EXPECT_EQ(CsvField(Cell::Text("=1+1")), "'=1+1");
  EXPECT_EQ(CsvField(Cell::Text("+cmd")), "'+cmd");
  EXPECT_EQ(CsvField(Cell::Text("@SUM(A1)")), "'@SUM(A1)");
  EXPECT_EQ(CsvField(Cell::Text("%x")), "'%x");
  EXPECT_EQ(CsvField(Cell::Text("a;=b")), "'a;=b");
  EXPECT_EQ(CsvField(Cell::Text("\xEF\xBC\x9D" "1")), "'\xEF\xBC\x9D" "1");  // full-width ＝
  EXPECT_EQ(CsvField(Cell::Text("=a,b")), "\"'=a,b\"");                      // defused, then quoted
  // Texts Python's float() accepts are numbers, not formulas.
  EXPECT_EQ(CsvField(Cell::Text("-1.5")), "-1.5");
  EXPECT_EQ(CsvField(Cell::Text("-inf")), "-inf");
  EXPECT_EQ(CsvField(Cell::Text("+1e-05")), "+1e-05");
  EXPECT_EQ(CsvField(Cell::Text("-Infinity")), "-Infinity");
  EXPECT_EQ(CsvField(Cell::Text(" -2 ")), " -2 ");
  EXPECT_EQ(CsvField(Cell::Text("-1_000.5")), "-1_000.5");
  EXPECT_TRUE(LooksLikeFormula("-1.5.2"));
  EXPECT_TRUE(LooksLikeFormula("-0x10"));
  EXPECT_FALSE(LooksLikeFormula("a-b"));
  EXPECT_FALSE(LooksLikeFormula("N/A"));
  // ';'-joined numbers (--consistent_check's joined means) are numbers piece by piece; one piece that
  // is not makes the whole text suspect.
  EXPECT_EQ(CsvField(Cell::Text("-0.5;-1e-05;2")), "-0.5;-1e-05;2");
  EXPECT_TRUE(LooksLikeFormula("-0.5;None"));
  EXPECT_TRUE(LooksLikeFormula("0.5;-x"));
}

TEST(CsvWriterTest, SplitsIntoPartFilesOnlyPastTheLimit) {
  TempDir tmp;
  const std::string out = tmp.Path("compare_result_20260101.csv");
  auto one = WriteCsv(out, SmallTable(2), 2);
  ASSERT_TRUE(one.ok()) << one.status().ToString();
  EXPECT_EQ(*one, std::vector<std::string>{out});
  EXPECT_EQ(Lines(ReadFile(out)).size(), 3u);

  const std::string split = tmp.Path("split.csv");
  auto parts = WriteCsv(split, SmallTable(5), 2);
  ASSERT_TRUE(parts.ok()) << parts.status().ToString();
  ASSERT_EQ(parts->size(), 3u);
  EXPECT_EQ((*parts)[0], tmp.Path("split_part_1.csv"));
  EXPECT_EQ((*parts)[1], tmp.Path("split_part_2.csv"));
  EXPECT_EQ((*parts)[2], tmp.Path("split_part_3.csv"));
  EXPECT_FALSE(std::filesystem::exists(split));
  const std::vector<std::string> p1 = Lines(ReadFile((*parts)[0]));
  const std::vector<std::string> p3 = Lines(ReadFile((*parts)[2]));
  ASSERT_EQ(p1.size(), 3u);
  ASSERT_EQ(p3.size(), 2u);
  EXPECT_TRUE(p1[0].starts_with("NPU Name,Bench Name,"));
  EXPECT_EQ(p3[0], p1[0]);
  EXPECT_TRUE(p1[1].starts_with("Functional.relu.0.forward.input.0,"));
  EXPECT_TRUE(p3[1].starts_with("Functional.relu.4.forward.input.0,"));
}

// Rows rendered elsewhere (a statistics slice's, docs/distributed.md §3.1) and appended after the
// stream's own fall into the part files as the rows themselves would: the same files, byte for byte.
TEST(CsvWriterTest, RowsRenderedElsewhereGiveTheSameFiles) {
  TempDir tmp;
  const ResultTable whole = SmallTable(7);
  std::filesystem::create_directory(tmp.Path("whole"));
  auto written = WriteCsv(tmp.Path("whole/r.csv"), whole, 3);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  ASSERT_EQ(written->size(), 3u);
  std::filesystem::create_directory(tmp.Path("parts"));
  auto stream = CsvResultStream::Open(tmp.Path("parts/r.csv"), whole.Header(), 3);
  ASSERT_TRUE(stream.ok());
  ResultTable first = whole, rest = whole;
  first.rows.resize(1);
  rest.rows.erase(rest.rows.begin());
  ASSERT_TRUE(stream->Append(first).ok());
  RenderedRows rendered;
  CsvResultStream::Render(rest, &rendered);
  EXPECT_EQ(rendered.rows(), 6u);
  ASSERT_TRUE(stream->AppendRendered(rendered).ok());
  auto parts = std::move(*stream).Commit();
  ASSERT_TRUE(parts.ok());
  ASSERT_EQ(parts->size(), written->size());
  for (size_t i = 0; i < parts->size(); ++i) EXPECT_EQ(ReadFile((*parts)[i]), ReadFile((*written)[i])) << i;
}

TEST(CsvWriterTest, EmptyTableWritesTheHeaderOnly) {
  TempDir tmp;
  ResultTable t;
  t.mode = CompareMode::kMd5;
  ASSERT_TRUE(WriteCsv(tmp.Path("md5.csv"), t).ok());
  EXPECT_EQ(ReadFile(tmp.Path("md5.csv")),
            "NPU Name,Bench Name,NPU Dtype,Bench Dtype,NPU Tensor Shape,Bench Tensor Shape,NPU Requires_grad,"
            "Bench Requires_grad,NPU MD5,BENCH MD5,Requires_grad Consistent,Result,Err_message\n");
}

TEST(CsvWriterTest, FailureLeavesNoFileUnderTheFinalName) {
  TempDir tmp;
  EXPECT_STATUS(WriteCsv(tmp.Path("missing/dir/out.csv"), SmallTable(1)), Code::kIOError, "cannot create");

  // The rename onto a directory fails after the data was written.
  std::filesystem::create_directory(tmp.Path("taken.csv"));
  EXPECT_STATUS(WriteCsv(tmp.Path("taken.csv"), SmallTable(1)), Code::kIOError, "rename");
  EXPECT_TRUE(std::filesystem::is_directory(tmp.Path("taken.csv")));

  // A later part failing takes the earlier parts away with it.
  std::filesystem::create_directory(tmp.Path("parts_part_2.csv"));
  EXPECT_STATUS(WriteCsv(tmp.Path("parts.csv"), SmallTable(3), 2), Code::kIOError, "rename");
  EXPECT_FALSE(std::filesystem::exists(tmp.Path("parts_part_1.csv")));
  EXPECT_FALSE(std::filesystem::exists(tmp.Path("parts.csv")));
  size_t entries = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(tmp.root())) ++entries;
  EXPECT_EQ(entries, 2u);  // only the two directories: no temporary file is left behind
}

}  // namespace
}  // namespace msprobe::compare
