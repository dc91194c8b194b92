#include "msprobe/compare/output/junit_report.h"

#include <fmt/format.h>

#include <unordered_map>

#include "msprobe/compare/metrics/kernel_accuracy.h"
#include "msprobe/dump/io/atomic_file.h"
#include "msprobe/dump/util/coding.h"

namespace msprobe::compare {
namespace {

// XML 1.0 text or attribute: escapes markup and quotes; what XML cannot hold, control characters and
// the non-characters U+FFFE and U+FFFF (valid UTF-8, "\ufffe" in a dump.json), becomes '?'.
std::string Xml(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (s.substr(i, 3) == "\xef\xbf\xbe" || s.substr(i, 3) == "\xef\xbf\xbf") {
      out += '?';
      i += 2;
      continue;
    }
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      case '\n': out += "&#10;"; break;
      case '\t': out += "&#9;"; break;
      case '\r': out += "&#13;"; break;
      default: out += static_cast<unsigned char>(c) < 0x20 ? '?' : c;
    }
  }
  return out;
}

}  // namespace

void JunitSuiteBuilder::Add(const ResultTable& table) {
  for (const ResultRow& row : table.rows) {
    const auto [it, inserted] = index_.try_emplace(row.api, cases_.size());
    if (inserted) cases_.push_back({row.api, {}});
    if (row.result >= failing_) {
      cases_[it->second].failures.push_back(
          {row.target_name, row.result, VerdictReason(row, table.mode, table.layout)});
    }
  }
}

void JunitSuiteBuilder::Add(std::vector<JunitCase> later) {
  for (JunitCase& c : later) {
    const auto [it, inserted] = index_.try_emplace(c.name, cases_.size());
    if (inserted) {
      cases_.push_back(std::move(c));
      continue;
    }
    std::vector<JunitFailure>& failures = cases_[it->second].failures;
    failures.insert(failures.end(), std::make_move_iterator(c.failures.begin()),
                    std::make_move_iterator(c.failures.end()));
  }
}

JunitSuite JunitSuiteBuilder::Finish(std::string name, std::string file) && {
  return JunitSuite{std::move(name), std::move(file), 0, std::move(cases_), std::nullopt};
}

JunitSuite BuildJunitSuite(std::string name, std::string file, const ResultTable& table,
                           std::optional<Verdict> level) {
  JunitSuiteBuilder builder(level);
  builder.Add(table);
  return std::move(builder).Finish(std::move(name), std::move(file));
}

namespace {

// A suite's testcases, failures and skipped testcases, its "not compared" testcase included.
struct SuiteCounts {
  size_t tests = 0, failures = 0, skipped = 0;
};
SuiteCounts CountSuite(const JunitSuite& suite) {
  SuiteCounts n{suite.cases.size(), 0, 0};
  for (const JunitCase& c : suite.cases) n.failures += c.failures.empty() ? 0 : 1;
  if (suite.not_compared) {
    ++n.tests;
    ++(suite.not_compared->failure ? n.failures : n.skipped);
  }
  return n;
}

std::string NotComparedCase(const JunitSuite& suite) {
  const JunitNotCompared& nc = *suite.not_compared;
  std::string out = fmt::format("    <testcase name=\"not compared\" classname=\"{}\">\n", Xml(suite.name));
  if (nc.failure) {
    out += fmt::format("      <failure message=\"{0}\" type=\"not compared\">{0}</failure>\n", Xml(nc.message));
  } else {
    out += fmt::format("      <skipped message=\"{}\"/>\n", Xml(nc.message));
  }
  return out + "    </testcase>\n";
}

}  // namespace

Status WriteJunit(const std::string& path, const std::vector<JunitSuite>& suites) {
  size_t tests = 0, failures = 0;
  for (const JunitSuite& suite : suites) {
    const SuiteCounts n = CountSuite(suite);
    tests += n.tests;
    failures += n.failures;
  }
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format("<testsuites name=\"msprobe-compare\" tests=\"{}\" failures=\"{}\" errors=\"0\">\n", tests, failures);
  for (const JunitSuite& suite : suites) {
    const SuiteCounts n = CountSuite(suite);
    out += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" time=\"{:.3f}\">\n",
                       Xml(suite.name), n.tests, n.failures, n.skipped, suite.seconds);
    if (!suite.file.empty()) {  // the suite of the inputs not compared has none
      out += fmt::format("    <properties>\n      <property name=\"result_file\" value=\"{}\"/>\n    </properties>\n",
                         Xml(suite.file));
    }
    for (const JunitCase& c : suite.cases) {
      if (c.failures.empty()) {
        out += fmt::format("    <testcase name=\"{}\" classname=\"{}\"/>\n", Xml(c.name), Xml(suite.name));
        continue;
      }
      const JunitFailure& first = c.failures.front();
      out += fmt::format("    <testcase name=\"{}\" classname=\"{}\">\n", Xml(c.name), Xml(suite.name));
      out += fmt::format("      <failure message=\"{}: {}: {}\" type=\"{}\">", Xml(first.target_name),
                         VerdictName(first.result), Xml(first.err_message), VerdictName(first.result));
      for (const JunitFailure& f : c.failures) {
        out += Xml(fmt::format("{}\t{}\t{}", f.target_name, VerdictName(f.result), f.err_message)) + "&#10;";
      }
      out += "</failure>\n    </testcase>\n";
    }
    if (suite.not_compared) out += NotComparedCase(suite);
    out += "  </testsuite>\n";
  }
  out += "</testsuites>\n";
  return WriteFileAtomically(path, out);
}

namespace {

void PutJunitCase(std::string* dst, const JunitCase& c) {
  PutString(dst, c.name);
  PutVector(dst, c.failures, [](std::string* dst, const JunitFailure& f) {
    PutString(dst, f.target_name);
    PutEnum(dst, f.result);
    PutString(dst, f.err_message);
  });
}

bool GetJunitCase(Decoder* in, JunitCase* c) {
  return GetString(in, &c->name) && GetVector(in, &c->failures, [](Decoder* in, JunitFailure* f) {
           return GetString(in, &f->target_name) && GetEnum(in, &f->result, Verdict::kError) &&
                  GetString(in, &f->err_message);
         });
}

}  // namespace

void PutJunitSuite(std::string* dst, const JunitSuite& suite) {
  PutString(dst, suite.name);
  PutString(dst, suite.file);
  PutDouble(dst, suite.seconds);
  PutVector(dst, suite.cases, PutJunitCase);
  PutOptional(dst, suite.not_compared, [](std::string* dst, const JunitNotCompared& nc) {
    PutString(dst, nc.message);
    PutBool(dst, nc.failure);
  });
}

bool GetJunitSuite(Decoder* in, JunitSuite* suite) {
  return GetString(in, &suite->name) && GetString(in, &suite->file) && GetDouble(in, &suite->seconds) &&
         GetVector(in, &suite->cases, GetJunitCase) &&
         GetOptional(in, &suite->not_compared, [](Decoder* in, JunitNotCompared* nc) {
           return GetString(in, &nc->message) && GetBool(in, &nc->failure);
         });
}

void PutJunitCases(std::string* dst, const JunitSuiteBuilder& builder) { PutVector(dst, builder.cases_, PutJunitCase); }

bool GetJunitCases(Decoder* in, JunitSuiteBuilder* builder) {
  std::vector<JunitCase> cases;
  if (!GetVector(in, &cases, GetJunitCase)) return false;
  builder->cases_.clear();
  builder->index_.clear();
  builder->Add(std::move(cases));
  return true;
}

}  // namespace msprobe::compare
