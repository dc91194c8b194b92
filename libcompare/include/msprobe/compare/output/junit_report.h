// JUnit XML for CI servers (ours): one <testsuite> per compared pair, one <testcase> per API or
// module group (api_origin_name), and a <failure> carrying Result and Err_message for each group
// with a row at or above the failing level, so Jenkins and GitLab list what diverged; and a testcase
// "not compared" for the rows that found no counterpart or could not be read.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "msprobe/compare/table/result_table.h"
#include "msprobe/compare/output/summary_report.h"
#include "msprobe/dump/util/status.h"

namespace msprobe::compare {

struct JunitFailure {
  std::string target_name;
  Verdict result = Verdict::kPass;
  std::string err_message;
};

struct JunitCase {
  std::string name;                    // api_origin_name
  std::vector<JunitFailure> failures;  // rows reaching the level
};

// The pair's rows that were not compared (docs/compare.md §5.4): a last testcase "not compared",
// skipped, or failed when a gate fails on them (--fail-on warning; any gate when no row matched).
struct JunitNotCompared {
  std::string message;  // the counts and the first of each kind, or why no row matched
  bool failure = false;
};

struct JunitSuite {
  std::string name;      // "rank0", or the compared json for a file pair
  std::string file;      // the result file, for the suite's properties ("" for the inputs not compared)
  double seconds = 0;
  std::vector<JunitCase> cases;
  std::optional<JunitNotCompared> not_compared;
};

// A suite in a message between processes (coding.h).
void PutJunitSuite(std::string* dst, const JunitSuite& suite);
[[nodiscard]] bool GetJunitSuite(Decoder* in, JunitSuite* suite);

// Groups the table's rows by api_origin_name (first appearance order); rows at `level` or worse
// (no level counts as kError) become failures.
JunitSuite BuildJunitSuite(std::string name, std::string file, const ResultTable& table, std::optional<Verdict> level);

// BuildJunitSuite over a table that comes in pieces, in row order.
class JunitSuiteBuilder {
 public:
  explicit JunitSuiteBuilder(std::optional<Verdict> level) : failing_(level.value_or(Verdict::kError)) {}
  void Add(const ResultTable& table);
  // The cases another builder made of the rows after these (a statistics slice's, docs/distributed.md
  // §3.1): the same as adding those rows here.
  void Add(const JunitSuiteBuilder& later) { Add(later.cases_); }
  JunitSuite Finish(std::string name, std::string file) &&;

 private:
  void Add(std::vector<JunitCase> later);
  // Its cases in a message between processes (coding.h); the failing level is the run's on both sides.
  friend void PutJunitCases(std::string* dst, const JunitSuiteBuilder& builder);
  friend bool GetJunitCases(Decoder* in, JunitSuiteBuilder* builder);

  Verdict failing_;
  std::vector<JunitCase> cases_;
  std::unordered_map<std::string, size_t> index_;  // api_origin_name → its case
};

void PutJunitCases(std::string* dst, const JunitSuiteBuilder& builder);
[[nodiscard]] bool GetJunitCases(Decoder* in, JunitSuiteBuilder* builder);

// <testsuites> with every suite, written atomically.
Status WriteJunit(const std::string& path, const std::vector<JunitSuite>& suites);

}  // namespace msprobe::compare
