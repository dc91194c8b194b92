#include "msprobe/compare/recompute/recompute_job.h"
#include "msprobe/compare/report/html_report.h"
#include "msprobe/dump/kernel/folder_survey.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

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
    }
  }
  return n;
}

void Add(RecomputeCounts* sum, const RecomputeCounts& n) {
  sum->calls += n.calls, sum->ok += n.ok, sum->exceeds += n.exceeds;
  sum->unsupported += n.unsupported, sum->skipped += n.skipped;
}

Json CountsJson(const RecomputeCounts& n) {
  return {{"calls", n.calls}, {"ok", n.ok}, {"exceeds", n.exceeds}, {"unsupported", n.unsupported},
          {"skipped", n.skipped}};
}

Status WriteSummary(const RecomputeOptions& options, const RecomputeReport& report) {
  Json summary = {{"tool", "msprobe-dump recompute"}, {"version", options.tool_version}, {"input", options.input}};
  summary["counts"] = CountsJson(report.counts);
  if (report.first_exceeding) {
    const FirstExceeding& f = *report.first_exceeding;
    summary["first_exceeding"] = {{"api", f.api}, {"dump_json", f.dump_json}, {"file", f.file}, {"row", f.row}};
  } else {
    summary["first_exceeding"] = nullptr;
  }
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
  for (const std::string& dump_json : dumps) {
    MSP_ASSIGN_OR_RETURN(ops::DumpCheck check, ops::CheckDumpCalls(dump_json, progress));
    before += check.calls.size();
    const std::string label = Label(options.input, dump_json, dumps.size() > 1);
    const std::string stem =
        (fs::path(options.output_dir) / ("recompute_result" + (label.empty() ? "" : "_" + label) + "_" + ts)).string();
    RecomputePart part{dump_json, {stem + ".csv", stem + ".xlsx"}, Count(check)};
    MSP_RETURN_IF_ERROR(WriteRecomputeCsv(part.outputs[0], check.calls));
    MSP_RETURN_IF_ERROR(WriteRecomputeXlsx(part.outputs[1], check.calls));
    for (size_t i = 0; i < check.calls.size() && !report.first_exceeding; ++i) {
      if (check.calls[i].check.verdict == ops::SelfVerdict::kExceeds) {
        report.first_exceeding = FirstExceeding{check.calls[i].key, dump_json, part.outputs[0], i};
      }
    }
    if (options.write_html) html.AddPart(internal::MakeRecomputePart(label, dump_json, check.calls));
    Add(&report.counts, part.counts);
    report.parts.push_back(std::move(part));
  }
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
