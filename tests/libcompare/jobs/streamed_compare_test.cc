// A statistics or md5 compare streams its target in batches (docs/compare.md §6.1). Whatever the batch
// size, every output must be what the whole compare in memory writes: the csv, json, xlsx (every
// cell of every sheet), -da's per-rank json and first diff, summary counts, first error, worst rows
// and JUnit. The dumps here are made so that batches cut between a forward call and the backward
// call renumbered after it, unmatched rows, warnings and errors fall in different batches.
#include <gtest/gtest.h>

#include <string>

#include "libcompare/jobs/run_outputs.h"
#include "msprobe/compare/jobs/compare_job.h"
#include "test_support.h"

namespace msprobe::compare {
namespace {

using msprobe::testing::ReadFile;
using msprobe::testing::TempDir;
using namespace msprobe::compare::run_outputs;  // NOLINT: the fixtures and output readers

class StreamedCompare : public ::testing::Test {
 protected:
  // Runs the compare in memory and streamed in batches of `batch_rows`; both must write the same.
  // `streams`: whether the pairs are expected to stream (or to fall back to the whole compare).
  void ExpectSameAsInMemory(CompareOptions options, size_t batch_rows, bool streams = true) {
    const auto run = [&](size_t rows, const std::string& out) {
      options.stream_batch_rows = rows;
      options.output_dir = dir_.Path(out);
      options.junit_path = dir_.Path(out + ".junit.xml");
      auto report = RunCompare(options);
      EXPECT_TRUE(report.ok()) << report.status().ToString();
      return report.ok() ? std::move(*report) : CompareReport{};
    };
    const CompareReport whole = run(0, "whole");
    const CompareReport streamed = run(batch_rows, "streamed");
    ASSERT_FALSE(whole.pairs.empty());
    uint64_t flagged = 0;
    for (const PairResult& pair : whole.pairs) flagged += pair.errors + pair.warnings;
    EXPECT_GT(flagged, 0u);  // the verdicts are exercised
    for (const PairResult& pair : streamed.pairs) EXPECT_EQ(pair.streamed, streams) << pair.label;
    for (const PairResult& pair : whole.pairs) EXPECT_FALSE(pair.streamed) << pair.label;
    EXPECT_EQ(Summary(streamed), Summary(whole));
    const auto whole_outputs = Outputs(whole), streamed_outputs = Outputs(streamed);
    EXPECT_FALSE(whole_outputs.empty());
    EXPECT_EQ(streamed_outputs, whole_outputs);
    EXPECT_EQ(NormalizedJunit(ReadFile(options.junit_path), "/streamed/", "/whole/"),
              NormalizedJunit(ReadFile(dir_.Path("whole.junit.xml")), "/streamed/", "/whole/"));
  }

  CompareOptions FilePair(const DumpShape& target, const DumpShape& golden) { return FileDumps(dir_.root(), target, golden); }

  TempDir dir_;
};

TEST_F(StreamedCompare, StatisticsInBatchesWritesWhatTheWholeCompareWrites) {
  CompareOptions options = FilePair({}, {.golden = true});
  for (const size_t batch : {1, 5, 7, 64}) ExpectSameAsInMemory(options, batch);
}

TEST_F(StreamedCompare, StackColumnAndFailOnWarningAgree) {
  CompareOptions options = FilePair({}, {.golden = true});
  Write(dir_.Path("npu/stack.json"),
        R"j({"Functional.linear.3.forward": ["File a.py, line 1, in f", "y = linear(x)"],)j"
        R"j( "Functional.linear.20.forward": ["File b.py, line 2, in g"]})j");
  options.fail_on = Verdict::kWarning;
  ExpectSameAsInMemory(options, 6);
}

TEST_F(StreamedCompare, Md5InBatchesWritesWhatTheWholeCompareWrites) {
  ExpectSameAsInMemory(FilePair({.md5 = true}, {.md5 = true, .golden = true}), 4);
}

// The target says it is MindSpore only after its data: its batches were read as PyTorch, so the
// pair is compared again in memory, and writes the same.
TEST_F(StreamedCompare, FrameworkAfterDataFallsBackToTheWholeCompare) {
  ExpectSameAsInMemory(FilePair({.framework_last = true}, {.golden = true}), 5, /*streams=*/false);
}

TEST_F(StreamedCompare, DiffAnalyzeAcrossRanksInBatchesAgrees) {
  CompareOptions options = RankDumps(dir_.root(), 2);  // with --json: every writer runs
  options.diff_analyze = true;  // the xlsx marks the first diff
  ExpectSameAsInMemory(options, 9);
}

// -da reads the two gradient entries as one batch; streamed one entry at a time, they would be two:
// the pair is compared again in memory.
TEST_F(StreamedCompare, DiffAnalyzeBatchAcrossBatchesFallsBackToTheWholeCompare) {
  CompareOptions options = FilePair({.joined_grads = true}, {.golden = true, .joined_grads = true});
  options.diff_analyze = true;
  ExpectSameAsInMemory(options, 1, /*streams=*/false);
}

// --align pairs rows anywhere in the target with rows anywhere in the golden: its pairs are compared
// in memory (docs/compare.md §3.8), and write what the whole compare writes, -da's outputs included.
TEST_F(StreamedCompare, AlignComparesInMemory) {
  CompareOptions options = FilePair({}, {.golden = true});
  options.align = true;
  ExpectSameAsInMemory(options, 5, /*streams=*/false);
  options = RankDumps(dir_.root() / "ranks", 2, /*md5=*/true);
  options.align = true;
  options.diff_analyze = true;
  options.write_json = false;  // -da writes its own json
  ExpectSameAsInMemory(options, 5, /*streams=*/false);
}

}  // namespace
}  // namespace msprobe::compare
