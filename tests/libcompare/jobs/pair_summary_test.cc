// A pair's summary counted in parts (a statistics slice's rows counted where they were compared,
// docs/distributed.md §3.1), each part sent as a message and added in order, is the summary of the
// rows counted in one: counts, first error and warning, the first rows without a counterpart, the 20
// worst rows (ties across parts included) and the JUnit cases (an API in two parts one case).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <string>
#include <vector>

#include "jobs/run_report_internal.h"
#include "msprobe/dump/util/coding.h"

namespace msprobe::compare {
namespace {

// 60 rows of 20 APIs: verdicts, norms with ties, rows without a counterpart on either side.
ResultTable Rows() {
  ResultTable t;
  t.mode = CompareMode::kSummary;
  for (int i = 0; i < 60; ++i) {
    ResultRow r;
    r.api = fmt::format("Torch.add.{}.forward", i / 3);
    r.target_name = fmt::format("{}.output.{}", r.api, i % 3);
    r.result = i % 7 == 5 ? Verdict::kError : i % 5 == 2 ? Verdict::kWarning : Verdict::kPass;
    r.err_messages = {fmt::format("message {}", i)};
    r.metrics.assign(8, Cell::Text("0"));
    r.metrics[kNormRel] = Cell::Text(fmt::format("{}.0%", (i * 37) % 11));  // ties
    r.matched = i % 9 != 4;
    r.golden_only = i % 18 == 13;
    if (r.golden_only) r.golden_name = fmt::format("golden.{}", i);
    t.rows.push_back(std::move(r));
  }
  return t;
}

ResultTable RowsOf(const ResultTable& whole, size_t begin, size_t end) {
  ResultTable t = whole;
  t.rows.assign(whole.rows.begin() + static_cast<std::ptrdiff_t>(begin),
                whole.rows.begin() + static_cast<std::ptrdiff_t>(end));
  return t;
}

std::string Ref(const std::optional<RowRef>& ref) {
  return ref ? fmt::format("{} {} {}", ref->row, ref->target_name, ref->file) : "none";
}

// What Finish gives, as text.
std::string Finished(PairSummary summary) {
  PairResult r;
  const std::optional<JunitSuite> junit = std::move(summary).Finish("r.csv", 0, &r);
  std::string text = fmt::format("{} {} {} {} matched {} error {} warning {} unmatched {} {} {} {}\n", r.rows,
                                 r.passed, r.warnings, r.errors, r.matched_rows, Ref(r.first_error),
                                 Ref(r.first_warning), r.unmatched.target, Ref(r.unmatched.first_target),
                                 r.unmatched.golden, r.unmatched.first_golden);
  for (const WorstRow& w : r.worst) text += fmt::format("worst {} {} {}\n", w.row, w.target_name, w.value);
  for (const JunitCase& c : junit.value().cases) {
    text += "case " + c.name;
    for (const JunitFailure& f : c.failures) text += " " + f.target_name;
    text += "\n";
  }
  return text;
}

TEST(PairSummary, PartsAddedInOrderCountAsTheWhole) {
  CompareOptions options;
  options.junit_path = "j.xml";
  options.fail_on = Verdict::kWarning;
  const ResultTable whole = Rows();
  PairSummary one(options);
  one.Add(whole);
  const std::string want = Finished(std::move(one));
  ASSERT_NE(want.find("worst"), std::string::npos);
  for (const size_t cut : {size_t{0}, size_t{1}, size_t{4}, size_t{29}, size_t{59}, size_t{60}}) {
    PairSummary first(options), later(options);
    first.Add(RowsOf(whole, 0, cut));
    later.Add(RowsOf(whole, cut, std::min<size_t>(cut + 20, 60)));  // a part of two tables
    later.Add(RowsOf(whole, std::min<size_t>(cut + 20, 60), 60));
    std::string message;
    PutPairSummary(&message, later);
    PairSummary received(options);
    DecodeMessage(message, "a summary", [&](Decoder* in) { return GetPairSummary(in, &received); });
    first.Add(received);
    EXPECT_EQ(Finished(std::move(first)), want) << "cut at " << cut;
  }
}

// A summary made for a run with a JUnit report and one without do not mix.
TEST(PairSummary, JunitCasesOnlyWhereBothHaveThem) {
  CompareOptions with;
  with.junit_path = "j.xml";
  PairSummary sent(with);
  sent.Add(Rows());
  std::string message;
  PutPairSummary(&message, sent);
  PairSummary without(CompareOptions{});
  EXPECT_THROW(DecodeMessage(message, "a summary", [&](Decoder* in) { return GetPairSummary(in, &without); }),
               std::logic_error);
}

}  // namespace
}  // namespace msprobe::compare
