// msprobe-convert: runs the convert job (kernel/convert_job.h), then prints its errors, warnings and notes
// per file, the output directory (stdout) and a summary (stderr; README, "Output streams").
#include "msprobe_convert/convert_command.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/exit_codes.h"
#include "common/progress.h"
#include "common/stderr_report.h"
#include "msprobe/dump/kernel/convert_job.h"

namespace msprobe::convert_app {
namespace {

constexpr std::string_view kProgram = "msprobe-convert";

void PrintSummary(const KernelConvertReport& report) {
  uint64_t skipped_total = 0;
  std::string reasons;
  for (const auto& [reason, count] : report.skipped) {
    skipped_total += count;
    reasons += fmt::format("{}{}: {}", reasons.empty() ? "" : ", ", reason, count);
  }
  const uint64_t failed = report.files.size() - report.converted;
  cli::PrintErr("{} files, {} tensors written, {} read, {} slots skipped{}{}\n", report.converted, report.tensors,
                cli::HumanBytes(report.bytes_read), skipped_total, reasons.empty() ? "" : " (" + reasons + ")",
                failed == 0 ? "" : fmt::format(", {} files failed", failed));
}

}  // namespace

int RunConvert(const ConvertArgs& args, const cli::CommonOptions& common) {
  const Result<KernelConvertReport> report = [&] {
    cli::ProgressBar bar("convert", common.quiet);  // cleared before the report is printed
    KernelConvertOptions options{args.dump_path, args.output_path, args.keep_device_format};
    if (args.type == "pt") options.output = KernelConvertOptions::Output::kPt;
    return RunKernelConvert(options, {.progress = bar.Callback()});
  }();
  if (!report.ok()) return cli::ReportAndExit(kProgram, report.status());
  int exit_code = cli::kExitOk;
  const Warn warn = cli::PrintWarnings(std::string(kProgram), nullptr);
  for (const ConvertedBinFile& file : report->files) {
    if (!file.status.ok()) {
      exit_code = std::max(exit_code, cli::ReportAndExit(kProgram, file.status));
      continue;
    }
    // -q silences notes, never a warning that data was not converted.
    for (const std::string& warning : file.warnings) warn(file.input, warning);
    if (!common.quiet) {
      for (const std::string& note : file.notes) cli::PrintErr("{}: note: {}: {}\n", kProgram, file.input, note);
    }
  }
  for (const Status& st : report->mapping_errors) exit_code = std::max(exit_code, cli::ReportAndExit(kProgram, st));
  // When every file failed, their errors have said all there is.
  if (common.quiet || report->converted == 0) return exit_code;
  if (report->tensors > 0) fmt::print("{}\n", args.output_path);
  PrintSummary(*report);
  return exit_code;
}

}  // namespace msprobe::convert_app
