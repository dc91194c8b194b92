// A compare spread over several processes (docs/distributed.md) writes what one process writes. The
// processes here are threads joined by an in-memory Cluster, so the protocol (shares, split pairs,
// gathering, -da's marks, failures) runs in every build and under the sanitizers; the MPI build's
// own test (tests/cli/mpi_compare_test.sh) runs the same over mpirun.
#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <fmt/format.h>

#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "libcompare/cluster/thread_world.h"
#include "libcompare/jobs/progress_reports.h"
#include "libcompare/jobs/run_outputs.h"
#include "msprobe/dump/formats/zip_archive.h"
#include "msprobe/dump/util/cluster.h"
#include "msprobe/compare/jobs/compare_job.h"
#include "test_support.h"

namespace msprobe::compare {
namespace {

namespace fs = std::filesystem;
using msprobe::testing::ReadFile;
using msprobe::testing::TempDir;
using namespace msprobe::compare::run_outputs;  // NOLINT: the fixtures and output readers
using msprobe::testing::ThreadWorld;

struct ProcessRun {
  Result<CompareReport> report = Status::Internal("", "not run");
  std::vector<std::string> failures;  // what on_failure heard
};

// RunCompare on `n` processes; options_of(p) gives process p its options, progress_of(p) its progress.
std::vector<ProcessRun> RunOn(int n, const std::function<CompareOptions(int)>& options_of,
                              const std::function<Progress(int)>& progress_of = {}) {
  ThreadWorld world(n);
  std::vector<ProcessRun> runs(n);
  std::vector<std::thread> threads;
  for (int p = 0; p < n; ++p) {
    threads.emplace_back([&, p] {
      ThreadWorld::Process cluster(&world, p);
      const JobContext context{.progress = progress_of ? progress_of(p) : Progress(),
                               .cluster = &cluster,
                               .on_failure = [&](const Status& s) { runs[p].failures.push_back(s.ToString()); }};
      runs[p].report = RunCompare(options_of(p), context);
    });
  }
  for (std::thread& t : threads) t.join();
  return runs;
}

// Every part of every workbook a run wrote, as stored (cells, their styles and shared strings), but
// the creation time in docProps/core.xml; by output name without its timestamp.
std::map<std::string, std::string> WorkbookParts(const CompareReport& report) {
  std::map<std::string, std::string> parts;
  for (const PairResult& pair : report.pairs) {
    for (const std::string& path : pair.outputs) {
      if (fs::path(path).extension() != ".xlsx") continue;
      const std::string name = fs::path(path).filename().string();
      const std::string bytes = ReadFile(path);
      Result<ZipArchive> zip = ZipArchive::Open(AsBytes(bytes), path);
      EXPECT_TRUE(zip.ok()) << path;
      if (!zip.ok()) continue;
      for (const ZipEntry& entry : zip->entries()) {
        if (entry.name == "docProps/core.xml") continue;
        Result<std::string> member = zip->ReadMember(entry, uint64_t{1} << 30);
        EXPECT_TRUE(member.ok()) << path << ": " << entry.name;
        if (member.ok()) parts[name.substr(0, name.rfind('_')) + ":" + entry.name] = std::move(*member);
      }
    }
  }
  return parts;
}

class DistributedCompare : public ::testing::Test {
 protected:
  // One process and `n` write the same files, summary and JUnit; the others return empty reports.
  void ExpectSameAsOneProcess(CompareOptions options, int n) {
    options.output_dir = dir_.Path("one");
    options.junit_path = dir_.Path("one.junit.xml");
    Result<CompareReport> one = RunCompare(options);
    ASSERT_TRUE(one.ok()) << one.status().ToString();
    const std::string dir = fmt::format("np{}", n);
    options.output_dir = dir_.Path(dir);
    options.junit_path = dir_.Path(dir + ".junit.xml");
    std::vector<ProcessRun> runs = RunOn(n, [&](int) { return options; });
    for (int p = 0; p < n; ++p) ASSERT_TRUE(runs[p].report.ok()) << p << ": " << runs[p].report.status().ToString();
    for (int p = 1; p < n; ++p) EXPECT_TRUE(runs[p].report->pairs.empty());
    const CompareReport& root = *runs[0].report;
    EXPECT_EQ(Summary(root), Summary(*one));
    const auto outputs = Outputs(*one);
    EXPECT_FALSE(outputs.empty());
    EXPECT_EQ(Outputs(root), outputs);
    EXPECT_EQ(WorkbookParts(root), WorkbookParts(*one));
    EXPECT_EQ(NormalizedJunit(ReadFile(options.junit_path), "/" + dir + "/", "/one/"),
              NormalizedJunit(ReadFile(dir_.Path("one.junit.xml")), "/" + dir + "/", "/one/"));
    EXPECT_EQ(NormalizedJunit(ReadFile(root.summary_file), "/" + dir + "/", "/one/"),
              NormalizedJunit(ReadFile(one->summary_file), "/" + dir + "/", "/one/"));
  }

  CompareOptions Ranks(int ranks, bool md5 = false) { return RankDumps(dir_.root(), ranks, md5); }

  TempDir dir_;
};

const std::string kSamples = std::string(MSPROBE_SOURCE_DIR) + "/samples/dist2";

TEST_F(DistributedCompare, RankPairsOverTwoToFiveProcessesWriteWhatOneWrites) {
  const CompareOptions options = Ranks(4);
  for (int n : {2, 3, 5}) ExpectSameAsOneProcess(options, n);
}

// Tensor pairs larger than a process's share: their rows are split among the processes, each
// computing the metrics of its slice; the owner writes the pair.
TEST_F(DistributedCompare, TensorPairsSplitByRowsWriteWhatOneWrites) {
  CompareOptions options;
  options.target_path = kSamples + "/npu_t/step0";
  options.golden_path = kSamples + "/bench_t/step0";
  options.write_json = options.write_html = true;
  for (int n : {2, 3, 4}) ExpectSameAsOneProcess(options, n);
  options.target_path += "/rank0";
  options.golden_path += "/rank0";
  for (int n : {2, 3}) ExpectSameAsOneProcess(options, n);
}

TEST_F(DistributedCompare, DiffAnalyzeGathersTheRanksAndMarksTheXlsx) {
  CompareOptions options = Ranks(4);
  options.diff_analyze = true;
  ExpectSameAsOneProcess(options, 3);
}

// --align: every process sharing a tensor pair aligns it alike before computing its slice; statistics
// pairs are compared whole (docs/compare.md §3.8).
TEST_F(DistributedCompare, AlignedPairsWriteWhatOneWrites) {
  for (const char* mode : {"tensor", "statistics", "md5"}) {
    CompareOptions options;
    options.target_path = std::string(MSPROBE_TEST_DATA) + "/align/softmax/" + mode + "/target/dump.json";
    options.golden_path = std::string(MSPROBE_TEST_DATA) + "/align/softmax/" + mode + "/golden/dump.json";
    options.write_json = options.write_html = true;
    options.align = true;
    for (int n : {2, 3}) ExpectSameAsOneProcess(options, n);
  }
  CompareOptions ranks = Ranks(4);
  ranks.align = true;
  ranks.diff_analyze = true;
  ranks.write_json = false;
  ExpectSameAsOneProcess(ranks, 3);
}

// One bar on process 0 for the whole run (docs/distributed.md §5): every pair's target dump.json from
// the start, moved by its own pairs as they go and by the others' when their outcomes arrive; the
// other processes report nothing. Whole pairs, tensor pairs split by rows, a statistics pair split
// by entries.
TEST_F(DistributedCompare, ProcessZeroShowsOneBarForTheWholeRun) {
  const auto bytes_of = [](const std::string& step, int ranks) {
    uint64_t bytes = 0;
    for (int r = 0; r < ranks; ++r) bytes += fs::file_size(fmt::format("{}/rank{}/dump.json", step, r));
    return bytes;
  };
  CompareOptions tensor;
  tensor.target_path = kSamples + "/npu_t/step0";
  tensor.golden_path = kSamples + "/bench_t/step0";
  tensor.output_dir = dir_.Path("tensor");
  DumpShape target, golden;
  golden.golden = true;
  CompareOptions statistics = FileDumps(dir_.root() / "one", target, golden);
  statistics.output_dir = dir_.Path("statistics");
  CompareOptions ranks = Ranks(4);
  ranks.output_dir = dir_.Path("ranks");
  constexpr int kProcesses = 3;
  // Process 0's reports; the others' are none.
  const auto root_bar = [&](const CompareOptions& options) {
    std::vector<progress_reports::BarReports> bars(kProcesses);
    std::vector<ProcessRun> done = RunOn(
        kProcesses, [&](int) { return options; }, [&](int p) { return bars[p].Callback(); });
    for (const ProcessRun& run : done) EXPECT_TRUE(run.report.ok()) << run.report.status().ToString();
    for (int p = 1; p < kProcesses; ++p) EXPECT_TRUE(bars[p].reports().empty()) << options.target_path << " " << p;
    return bars[0].reports();
  };
  // The reports between empty and full, each at most `most`.
  const auto moving = [](const std::vector<std::pair<uint64_t, uint64_t>>& reports, uint64_t bytes, uint64_t most) {
    size_t n = 0;
    for (const auto& [done, total] : reports) {
      if (done == 0 || done == bytes) continue;
      ++n;
      EXPECT_LE(done, most);
    }
    return n;
  };
  progress_reports::ExpectOneBar(root_bar(ranks), bytes_of(ranks.target_path, 4));
  progress_reports::ExpectOneBar(root_bar(tensor), bytes_of(tensor.target_path, 2));
  // A statistics pair split by entries: process 0's slice moves the bar as its batches are read.
  const uint64_t statistics_bytes = fs::file_size(statistics.target_path);
  const auto statistics_reports = root_bar(statistics);
  progress_reports::ExpectOneBar(statistics_reports, statistics_bytes);
  EXPECT_GT(moving(statistics_reports, statistics_bytes, statistics_bytes / 2), 0u);
  // One tensor pair split by rows over the three: process 0's slice moves only its third of the bar,
  // the rest comes with the other slices.
  tensor.target_path += "/rank0";
  tensor.golden_path += "/rank0";
  const uint64_t tensor_bytes = fs::file_size(tensor.target_path + "/dump.json");
  const auto tensor_reports = root_bar(tensor);
  progress_reports::ExpectOneBar(tensor_reports, tensor_bytes);
  EXPECT_GT(moving(tensor_reports, tensor_bytes, tensor_bytes / 2), 0u);
}

TEST_F(DistributedCompare, Md5PairsWriteWhatOneWrites) { ExpectSameAsOneProcess(Ranks(3, /*md5=*/true), 2); }

// A statistics pair larger than a process's share: each process parses its range of the target's
// entries and the golden entries they match (jobs/statistics_slices.cc); the owner appends every
// slice's rows in slice order: every file as one process writes it, the workbook's cell styles (the
// verdicts' fills) included.
TEST_F(DistributedCompare, StatisticsPairsSplitByEntriesWriteWhatOneWrites) {
  for (const bool md5 : {false, true}) {
    DumpShape target, golden;
    target.md5 = golden.md5 = md5;
    golden.golden = true;
    CompareOptions options = FileDumps(dir_.root() / (md5 ? "md5" : "plain"), target, golden);
    // The csv and json alone: the other slices' rows come made ready for the files (PairOutputsPart);
    // with a workbook or the --html page, as rows.
    for (const auto& [xlsx, html] : {std::pair{false, false}, std::pair{true, false}, std::pair{true, true}}) {
      options.write_xlsx = xlsx;
      options.write_html = html;
      options.stream_batch_rows = CompareOptions().stream_batch_rows;
      for (int n : {2, 3, 4}) ExpectSameAsOneProcess(options, n);
      options.stream_batch_rows = 7;  // each slice in several batches
      ExpectSameAsOneProcess(options, 3);
    }
  }
}

// A statistic column whose integers print as floats only with every slice's rows (a float in the
// owner's slice, an integer in another's: table/stat_columns.h): the column's kinds come with the other
// slices' rows, and the pair is compared whole, as one process writes it.
TEST_F(DistributedCompare, IntegersAmongAnotherSlicesFloatsPrintAsFloats) {
  std::string data;
  for (int i = 0; i < 30; ++i) {
    data += fmt::format(
        "{}\"Functional.linear.{}.forward\": {{\"input_args\": [], \"output\": [{{\"type\": \"torch.Tensor\", "
        "\"dtype\": \"torch.float32\", \"shape\": [2], \"Max\": {}, \"Min\": 0.5, \"Mean\": 0.5, \"Norm\": 1.5, "
        "\"requires_grad\": false}}]}}\n",
        i == 0 ? "" : ",", i, i == 29 ? "7" : "7.5");
  }
  const std::string dump =
      "{\"task\": \"statistics\", \"level\": \"L1\", \"framework\": \"pytorch\", \"data\": {" + data + "}}";
  CompareOptions options;
  for (const char* side : {"npu", "bench"}) Write(dir_.Path(std::string("ints/") + side + "/dump.json"), dump);
  options.target_path = dir_.Path("ints/npu/dump.json");
  options.golden_path = dir_.Path("ints/bench/dump.json");
  options.write_xlsx = false;
  options.write_json = true;
  for (int n : {2, 3}) ExpectSameAsOneProcess(options, n);
  options.output_dir = dir_.Path("ints_one");
  Result<CompareReport> one = RunCompare(options);
  ASSERT_TRUE(one.ok());
  EXPECT_NE(ReadFile(one->pairs.at(0).outputs.at(0)).find(",7.0,"), std::string::npos);  // the case it is
}

TEST_F(DistributedCompare, DiffAnalyzeSplitsStatisticsPairsByEntries) {
  CompareOptions options = Ranks(2);
  options.diff_analyze = true;
  ExpectSameAsOneProcess(options, 4);
  options.stream_batch_rows = 5;
  ExpectSameAsOneProcess(options, 4);
}

// What the owner's outline cannot settle is compared whole, as one process compares it: a framework
// after "data", -da's API batch over two entries, md5 the plan did not see, an entry that does not parse.
TEST_F(DistributedCompare, StatisticsPairsTheOutlineCannotSettleAreComparedWhole) {
  DumpShape target, golden;
  golden.golden = true;
  target.framework_last = true;
  ExpectSameAsOneProcess(FileDumps(dir_.root() / "framework_last", target, golden), 3);
  target.framework_last = false;
  target.joined_grads = golden.joined_grads = true;
  CompareOptions options = FileDumps(dir_.root() / "joined", target, golden);
  options.diff_analyze = true;
  ExpectSameAsOneProcess(options, 3);

  // md5 summaries on both sides, first past the entries the plan looks at: a slice reads them.
  options = FileDumps(dir_.root() / "late_md5", DumpShape{}, golden);
  const std::string late = "\"Functional.relu.0.forward\": {\"input_args\": [], \"output\": []}";
  const std::string with_md5 = "\"Functional.relu.0.forward\": {\"input_args\": [], \"output\": [\"md5\"]}";
  for (const std::string& path : {options.target_path, options.golden_path}) {
    std::string text = Dump(path == options.target_path ? DumpShape{} : golden);
    text.replace(text.find(late), late.size(), with_md5);
    Write(path, text);
  }
  ExpectSameAsOneProcess(options, 2);

  options = FileDumps(dir_.root() / "bad", DumpShape{}, golden);
  std::string text = Dump(DumpShape{});
  const std::string key = "\"Functional.linear.25.forward\": {";
  text.replace(text.find(key), key.size(), key + "\"x\": 1e, ");  // a slice's parse fails, not the outline
  Write(options.target_path, text);
  options.output_dir = dir_.Path("bad_one");
  Result<CompareReport> one = RunCompare(options);
  ASSERT_FALSE(one.ok());
  options.output_dir = dir_.Path("bad_three");
  for (const ProcessRun& run : RunOn(3, [&](int) { return options; })) {
    ASSERT_FALSE(run.report.ok());
    EXPECT_EQ(run.report.status().ToString(), one.status().ToString());
  }
}

// Two bad ranks: every process finishes its share, the run fails with the first in pair order (as
// one process does), each failing process hears of its own, and summary.json names the error and the
// two pairs that wrote their tables (docs/compare.md §1.5).
TEST_F(DistributedCompare, TheFirstFailureInPairOrderIsTheRunsAndNoneHangs) {
  CompareOptions options = Ranks(4);
  Write(dir_.Path("npu/step0/rank1/dump.json"), "{\"task\": \"statistics\", \"data\": {");
  Write(dir_.Path("npu/step0/rank3/dump.json"), "[]");
  options.output_dir = dir_.Path("one");
  Result<CompareReport> one = RunCompare(options);
  ASSERT_FALSE(one.ok());
  options.output_dir = dir_.Path("three");
  std::vector<ProcessRun> runs = RunOn(3, [&](int) { return options; });
  size_t heard = 0;
  for (const ProcessRun& run : runs) {
    ASSERT_FALSE(run.report.ok());
    EXPECT_EQ(run.report.status().ToString(), one.status().ToString());
    EXPECT_EQ(run.report.status().code(), one.status().code());
    heard += run.failures.size();
  }
  EXPECT_EQ(heard, 2u);
  rapidjson::Document summary;
  summary.Parse(testing::ReadFile(dir_.Path("three/summary.json")).c_str());
  ASSERT_FALSE(summary.HasParseError());
  EXPECT_EQ(std::string(summary["error"].GetString()), one.status().ToString());
  ASSERT_EQ(summary["pairs"].Size(), 2u);
  EXPECT_STREQ(summary["pairs"][0]["label"].GetString(), "rank0");
  EXPECT_STREQ(summary["pairs"][1]["label"].GetString(), "rank2");
  size_t csv = 0;
  for (const auto& entry : fs::directory_iterator(dir_.Path("three"))) csv += entry.path().extension() == ".csv";
  EXPECT_EQ(csv, 2u);  // ranks 0 and 2 compared all the same
}

// A failure before the shares (one process cannot see the golden dump): all stop with it.
TEST_F(DistributedCompare, ASetupFailureOnOneProcessStopsAll) {
  const CompareOptions options = Ranks(2);
  std::vector<ProcessRun> runs = RunOn(3, [&](int p) {
    CompareOptions o = options;
    o.output_dir = dir_.Path("out");
    if (p == 2) o.golden_path = dir_.Path("missing");
    return o;
  });
  for (const ProcessRun& run : runs) {
    ASSERT_FALSE(run.report.ok());
    EXPECT_NE(run.report.status().ToString().find("missing"), std::string::npos) << run.report.status().ToString();
  }
}

}  // namespace
}  // namespace msprobe::compare
