// msprobe-dump verify: problems one per line on stdout, then a summary line.
#include <fmt/format.h>
#include <rapidjson/ostreamwrapper.h>
#include <rapidjson/writer.h>

#include <iostream>

#include "common/exit_codes.h"
#include "common/progress.h"
#include "msprobe/dump/framework/dump_verify.h"
#include "msprobe_dump/commands.h"

namespace msprobe::dump_app {
namespace {

void PrintJson(const VerifyReport& report) {
  rapidjson::OStreamWrapper out(std::cout);
  rapidjson::Writer<rapidjson::OStreamWrapper> w(out);
  w.StartObject();
  w.Key("ok"); w.Bool(report.ok());
  w.Key("json_files"); w.StartArray();
  for (const std::string& f : report.json_files) w.String(f);
  w.EndArray();
  w.Key("tensor_records"); w.Uint64(report.tensor_records);
  w.Key("files_checked"); w.Uint64(report.files_checked);
  w.Key("bytes_read"); w.Uint64(report.bytes_read);
  w.Key("issues"); w.StartArray();
  for (const VerifyIssue& issue : report.issues) {
    w.StartObject();
    w.Key("kind"); w.String(std::string(FindingName(issue.kind)));
    w.Key("file"); w.String(issue.file);
    w.Key("where"); w.String(issue.where);
    w.Key("detail"); w.String(issue.detail);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  std::cout << '\n';
}

}  // namespace

int RunVerify(const VerifyArgs& args, const cli::CommonOptions& common) {
  Result<VerifyReport> report = [&] {
    cli::ProgressBar bar("verify", common.quiet);  // cleared before the report is printed
    return VerifyDump(args.path, [&](uint64_t done, uint64_t total) { bar.Update(done, total); });
  }();
  if (!report.ok()) return cli::ReportAndExit("msprobe-dump", report.status());
  if (args.json) {
    PrintJson(*report);
  } else {
    for (const VerifyIssue& issue : report->issues) {
      fmt::print("{:<12}  {}{}{}  {}\n", FindingName(issue.kind), issue.file, issue.where.empty() ? "" : "  ",
                 issue.where, issue.detail);
    }
    if (!common.quiet) {
      fmt::print("{}: {} json file(s), {} tensor file(s) checked, {} problem(s)\n", report->ok() ? "OK" : "FAILED",
                 report->json_files.size(), report->files_checked, report->issues.size());
    }
  }
  return report->ok() ? cli::kExitOk : cli::kExitGateFailed;
}

}  // namespace msprobe::dump_app
