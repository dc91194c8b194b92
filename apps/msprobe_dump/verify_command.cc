// msprobe-dump verify: problems one per line, then a summary line, on stderr (README, "Output streams");
// --json's document on stdout.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/exit_codes.h"
#include "common/progress.h"
#include "common/stderr_report.h"
#include "msprobe/dump/framework/dump_verify.h"
#include "msprobe/dump/kernel/folder_survey.h"
#include "msprobe_dump/commands.h"

namespace msprobe::dump_app {
namespace {

void PrintJson(const VerifyReport& report) {
  nlohmann::ordered_json issues = nlohmann::ordered_json::array();
  for (const VerifyIssue& issue : report.issues) {
    issues.push_back(
        {{"kind", FindingName(issue.kind)}, {"file", issue.file}, {"where", issue.where}, {"detail", issue.detail}});
  }
  const nlohmann::ordered_json j = {{"ok", report.ok()},
                                    {"json_files", report.json_files},
                                    {"task", report.task},
                                    {"entries", report.entries},
                                    {"tensor_records", report.tensor_records},
                                    {"files_checked", report.files_checked},
                                    {"files_missing", report.files_missing},
                                    {"files_unreadable", report.files_unreadable},
                                    {"bytes_read", report.bytes_read},
                                    {"issues", std::move(issues)}};
  // A path or detail that is not UTF-8 shows U+FFFD where its bad bytes were.
  fmt::print("{}\n", j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
}

// "OK: …" only when tensor files were checked: a dump without any (statistics, md5) says what was.
std::string SummaryLine(const VerifyReport& report) {
  if (report.ok() && report.files_checked == 0) {
    const std::string why = report.task == "statistics" || report.task == "md5"
                                ? fmt::format("a {} dump has no tensor files", report.task)
                                : "the json files name no tensor file";
    return fmt::format("checked {} json file(s): {} entries parsed; {}, so no statistics were recomputed",
                       report.json_files.size(), report.entries, why);
  }
  // Files not read are counted apart, never among those checked.
  std::string unread;
  if (report.files_missing > 0) unread += fmt::format(", {} missing", report.files_missing);
  if (report.files_unreadable > 0) unread += fmt::format(", {} unreadable", report.files_unreadable);
  return fmt::format("{}: {} json file(s), {} tensor file(s) checked{}, {} problem(s)", report.ok() ? "OK" : "FAILED",
                     report.json_files.size(), report.files_checked, unread, report.issues.size());
}

}  // namespace

int RunVerify(const VerifyArgs& args, const cli::CommonOptions& common) {
  Result<VerifyReport> report = [&] {
    cli::ProgressBar bar("verify", common.quiet);  // cleared before the report is printed
    return msprobe::RunVerify({args.path}, {.progress = bar.Callback()});
  }();
  if (!report.ok()) return cli::ReportAndExit("msprobe-dump", ExplainNoDumpJson(report.status()));
  if (args.json) {
    PrintJson(*report);
  } else {
    for (const VerifyIssue& issue : report->issues) {
      cli::PrintErr("{:<12}  {}{}{}  {}\n", FindingName(issue.kind), issue.file, issue.where.empty() ? "" : "  ",
                    issue.where, issue.detail);
    }
    if (!common.quiet) cli::PrintErr("{}\n", SummaryLine(*report));
  }
  return report->ok() ? cli::kExitOk : cli::kExitGateFailed;
}

}  // namespace msprobe::dump_app
