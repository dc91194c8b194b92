#include "msprobe/compare/recompute/recompute_job.h"
#include "msprobe/compare/report/html_report.h"
#include "msprobe/dump/kernel/folder_survey.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>

#include "recompute/recompute_table_internal.h"
#include "recompute/recompute_part_internal.h"  // --html
#include "msprobe/dump/framework/dump_layout.h"
#include "msprobe/dump/io/atomic_file.h"
#include "msprobe/dump/framework/output_location.h"
#include "output/output_timestamp_internal.h"

namespace msprobe::compare {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

// "" for a single dump; otherwise the dump's directory below the input, '/' as '_' ("step0_rank1"),
// so the parts of a step dir or dump root never share a name.
std::string Label(const std::string& input, const std::string& dump_json, bool several) {
  if (!several) return "";
  std::string rel = fs::path(dump_json).parent_path().lexically_relative(input).generic_string();
  if (rel.empty() || rel == ".") rel = fs::path(dump_json).parent_path().filename().string();
  for (char& c : rel) c = c == '/' ? '_' : c;
  return rel;
}

RecomputeCounts Count(const ops::DumpCheck& check) {
  RecomputeCounts n;
  n.calls = check.calls.size();
  n.skipped = check.skipped;
  for (const ops::CallCheck& c : check.calls) {
    switch (c.check.verdict) {
      case ops::SelfVerdict::kOk: ++n.ok; break;
      case ops::SelfVerdict::kExceeds: ++n.exceeds; break;
      case ops::SelfVerdict::kUnsupported: ++n.unsupported; break;
      case ops::SelfVerdict::kUnreadable: ++n.unreadable; break;
    }
  }
  return n;
}

void Add(RecomputeCounts* sum, const RecomputeCounts& n) {
  sum->calls += n.calls, sum->ok += n.ok, sum->exceeds += n.exceeds;
  sum->unsupported += n.unsupported, sum->unreadable += n.unreadable, sum->skipped += n.skipped;
}

Json CountsJson(const RecomputeCounts& n) {
  return {{"calls", n.calls}, {"ok", n.ok}, {"exceeds", n.exceeds}, {"unsupported", n.unsupported},
          {"unreadable", n.unreadable}, {"skipped", n.skipped}};
}

// first_exceeding, first_unreadable (with its reason): null when there is none.
Json CallRowJson(const std::optional<CallRow>& call, bool with_reason) {
  if (!call) return nullptr;
  Json j = {{"api", call->api}, {"dump_json", call->dump_json}, {"file", call->file}, {"row", call->row}};
  if (with_reason) j["reason"] = call->reason;
  return j;
}

Status WriteSummary(const RecomputeOptions& options, const RecomputeReport& report) {
  Json summary = {{"tool", "msprobe-dump recompute"}, {"version", options.tool_version}, {"input", options.input}};
  summary["counts"] = CountsJson(report.counts);
  summary["first_exceeding"] = CallRowJson(report.first_exceeding, false);
  summary["first_unreadable"] = CallRowJson(report.first_unreadable, true);
  summary["dumps_without_calls"] = report.dumps_without_calls;
  Json parts = Json::array();
  for (const RecomputePart& p : report.parts) {
    parts.push_back({{"dump_json", p.dump_json}, {"outputs", p.outputs}, {"counts", CountsJson(p.counts)}});
  }
  summary["parts"] = std::move(parts);
  return WriteFileAtomically(report.summary_file,
                             summary.dump(2, ' ', /*ensure_ascii=*/true, Json::error_handler_t::replace) + '\n');
}

// Refuses a dump with nothing to recompute (a statistics dump, a debug.json, an L0 dump, calls without
// a reference), naming what it is and what recompute takes; else the calls to check, in all.
Result<uint64_t> CountRecomputable(const std::string& input, const std::vector<std::string>& dumps) {
  uint64_t calls = 0, with_reference = 0;
  std::string first_call;
  for (const std::string& dump_json : dumps) {
    if (fs::path(dump_json).filename() == "debug.json") {
      return Status::InvalidInput(dump_json, "a debug.json (msprobe's single-point save) records no API calls to "
                                             "recompute; recompute takes a tensor dump.json of level L1 or mix");
    }
    MSP_ASSIGN_OR_RETURN(ops::DumpCallCount count, ops::CountDumpCalls(dump_json));
    const std::string& task = count.header.task;
    if (task != "tensor") {
      return Status::InvalidInput(
          dump_json, fmt::format("{} holds no tensors to recompute; dump with task \"tensor\" (level L1 or mix) and "
                                 "run recompute on it", task.empty() ? "a dump without a task" :
                                 fmt::format("{} {} dump (task \"{}\")", task == "md5" ? "an" : "a", task, task)));
    }
    calls += count.calls;
    with_reference += count.with_reference;
    if (first_call.empty()) first_call = count.first_call;
  }
  const bool one = dumps.size() == 1;
  const std::string& source = one ? dumps[0] : input;
  const std::string whose = one ? "its" : fmt::format("the {} dumps'", dumps.size());
  if (calls == 0) {
    return Status::InvalidInput(source, whose + " entries hold no forward API call to recompute (a level L0 dump "
                                        "records modules only); recompute takes a tensor dump of level L1 or mix");
  }
  if (with_reference == 0) {
    return Status::InvalidInput(source, fmt::format("none of {} {} API call(s) has a float64 reference (first: {}); "
                                                    "nothing was recomputed (supported APIs: docs/ops.md §3)",
                                                    whose, calls, first_call));
  }
  return calls;
}

// Progress over the run's calls: a dump's calls counted after those of the dumps before it.
Progress RunProgress(const Progress& progress, const uint64_t& before, uint64_t total) {
  if (!progress) return {};
  return [&progress, &before, total](std::string_view, uint64_t done, uint64_t) {
    progress("API calls", before + done, total);
  };
}

// A dump checked, its tables not yet written.
struct CheckedDump {
  std::string dump_json;
  ops::DumpCheck check;
};

bool AnyMeasured(const ops::DumpCheck& check) {
  return std::any_of(check.calls.begin(), check.calls.end(), [](const ops::CallCheck& c) { return c.check.Measured(); });
}

// The refusal of a run none of whose calls could be checked, each unsupported or unreadable, as
// CountRecomputable's (nothing checked is never "0 exceed"); the first unreadable call named, else
// the first call.
Status NothingChecked(const std::string& input, const std::vector<CheckedDump>& dumps) {
  RecomputeCounts n;
  const ops::CallCheck* first = nullptr;
  for (const CheckedDump& d : dumps) {
    Add(&n, Count(d.check));
    for (const ops::CallCheck& c : d.check.calls) {
      const bool unreadable = c.check.verdict == ops::SelfVerdict::kUnreadable;
      if (!first || (unreadable && first->check.verdict != ops::SelfVerdict::kUnreadable)) first = &c;
    }
  }
  const bool one = dumps.size() == 1;
  const std::string whose = one ? "its" : fmt::format("the {} dumps'", dumps.size());
  return Status::InvalidInput(
      one ? dumps[0].dump_json : input,
      fmt::format("none of {} {} API call(s) could be checked: {} unsupported, {} unreadable (first: {}: {}); nothing "
                  "was recomputed", whose, n.calls, n.unsupported, n.unreadable, first->key, first->check.reason));
}

// The first call of `dump` with `verdict`, as a row of `csv` (its table).
std::optional<CallRow> FirstWith(ops::SelfVerdict verdict, const CheckedDump& dump, const std::string& csv) {
  const std::vector<ops::CallCheck>& calls = dump.check.calls;
  for (size_t i = 0; i < calls.size(); ++i) {
    if (calls[i].check.verdict == verdict) return CallRow{calls[i].key, dump.dump_json, csv, i, calls[i].check.reason};
  }
  return std::nullopt;
}

// Writes a checked dump's tables and adds it to the report (and to the page, with --html).
Status WritePart(const RecomputeOptions& options, const std::string& ts, bool several, const CheckedDump& dump,
                 RecomputeReport* report, HtmlReport* html) {
  const std::string label = Label(options.input, dump.dump_json, several);
  const std::string stem =
      (fs::path(options.output_dir) / ("recompute_result" + (label.empty() ? "" : "_" + label) + "_" + ts)).string();
  RecomputePart part{dump.dump_json, {stem + ".csv", stem + ".xlsx"}, Count(dump.check)};
  MSP_RETURN_IF_ERROR(WriteRecomputeCsv(part.outputs[0], dump.check.calls));
  MSP_RETURN_IF_ERROR(WriteRecomputeXlsx(part.outputs[1], dump.check.calls));
  if (!report->first_exceeding) report->first_exceeding = FirstWith(ops::SelfVerdict::kExceeds, dump, part.outputs[0]);
  if (!report->first_unreadable) {
    report->first_unreadable = FirstWith(ops::SelfVerdict::kUnreadable, dump, part.outputs[0]);
  }
  if (dump.check.calls.empty()) report->dumps_without_calls.push_back(dump.dump_json);
  if (options.write_html) html->AddPart(internal::MakeRecomputePart(label, dump.dump_json, dump.check.calls));
  Add(&report->counts, part.counts);
  report->parts.push_back(std::move(part));
  return Status::Ok();
}

}  // namespace

Result<RecomputeReport> RunRecompute(const RecomputeOptions& options, const JobContext& context) {
  MSP_RETURN_IF_ERROR(CheckOutputOutsideInputs(options.output_dir, /*is_dir=*/true, {options.input}));
  Result<std::vector<std::string>> found = FindDumpJsonFiles(options.input);
  if (!found.ok()) return ExplainNoDumpJson(found.status());
  const std::vector<std::string>& dumps = *found;
  MSP_ASSIGN_OR_RETURN(const uint64_t total, CountRecomputable(options.input, dumps));
  uint64_t before = 0;  // the calls of the dumps checked so far
  const Progress progress = RunProgress(context.progress, before, total);
  std::error_code ec;
  fs::create_directories(options.output_dir, ec);
  if (ec) return Status::IOError(options.output_dir, "cannot create the output directory: " + ec.message());
  const std::string ts = OutputTimestamp();
  RecomputeReport report;
  HtmlReport html;
  // Dumps are held until a call of the run has been measured, so that a run that measured none is
  // refused with no table written; from then on each dump's tables are written as it is checked.
  std::vector<CheckedDump> held;
  bool measured = false;
  for (const std::string& dump_json : dumps) {
    MSP_ASSIGN_OR_RETURN(ops::DumpCheck check, ops::CheckDumpCalls(dump_json, progress));
    before += check.calls.size();
    measured = measured || AnyMeasured(check);
    held.push_back({dump_json, std::move(check)});
    if (!measured) continue;
    for (const CheckedDump& dump : held) {
      MSP_RETURN_IF_ERROR(WritePart(options, ts, dumps.size() > 1, dump, &report, &html));
    }
    held.clear();
  }
  if (!measured) return NothingChecked(options.input, held);
  if (options.write_html) {
    report.html_file = (fs::path(options.output_dir) / ("compare_report_" + ts + ".html")).string();
    HtmlReportMeta meta;
    meta.title = options.input;
    MSP_RETURN_IF_ERROR(html.Write(report.html_file, meta));
  }
  report.summary_file = (fs::path(options.output_dir) / "summary.json").string();
  MSP_RETURN_IF_ERROR(WriteSummary(options, report));
  return report;
}

}  // namespace msprobe::compare
