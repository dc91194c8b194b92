// msprobe-convert: finds the kernel dumps under -d, converts them in parallel (one task per file),
// then writes mapping.csv files and prints notes and a summary.
#include <fmt/format.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <set>
#include <fstream>

#include "common/exit_codes.h"
#include "common/progress.h"
#include "msprobe/dump/io/atomic_file.h"
#include "msprobe/dump/kernel/bin_convert.h"
#include "msprobe/dump/framework/dump_layout.h"
#include "msprobe/dump/kernel/dump_proto_enums.h"
#include "msprobe_convert/convert_command.h"
#include "msprobe_convert/output_names.h"

namespace msprobe::convert_app {
namespace {

namespace fs = std::filesystem;
constexpr std::string_view kProgram = "msprobe-convert";

struct Job {
  std::string input;
  fs::path out_dir;
  std::string out_dir_error;  // why out_dir could not be made, empty when it exists
};

struct FileReport {
  Status status;
  uint64_t tensors = 0;
  uint64_t bytes_in = 0;
  std::vector<std::string> notes;                           // per slot: kept layouts, skipped slots, caveats
  std::vector<std::string> skip_reasons;                    // one per skipped slot, short, for the summary
  std::vector<std::pair<std::string, std::string>> renames;  // (new, original) for mapping.csv
};

// A kernel dump name: {op_type}.{op_name}.{task_id}.{stream_id}.{timestamp} (§4.1), so at least five
// dot-separated fields ending in a number. In a tree, other files (npy, csv, json) are not ours.
bool IsKernelDumpName(const std::string& name) {
  if (std::count(name.begin(), name.end(), '.') < 4) return false;
  const std::string last = name.substr(name.rfind('.') + 1);
  return !last.empty() && std::all_of(last.begin(), last.end(), [](char c) { return c >= '0' && c <= '9'; });
}

Result<std::vector<Job>> FindJobs(const ConvertArgs& args) {
  std::error_code ec;
  const fs::path root(args.dump_path);
  const fs::file_status st = fs::status(root, ec);
  if (ec || !fs::exists(st)) return Status::NotFound(args.dump_path, "no such file or directory");
  std::vector<Job> jobs;
  if (!fs::is_directory(st)) {
    jobs.push_back({args.dump_path, fs::path(args.output_path), {}});
    return jobs;
  }
  for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file() || !IsKernelDumpName(it->path().filename().string())) continue;
    jobs.push_back({it->path().string(), fs::path(args.output_path) / it->path().parent_path().lexically_relative(root), {}});
  }
  if (ec) return Status::IOError(args.dump_path, "cannot list the directory: " + ec.message());
  std::sort(jobs.begin(), jobs.end(), [](const Job& a, const Job& b) { return NaturalLess(a.input, b.input); });
  return jobs;
}

std::string SlotLabel(const BinSlot& slot) { return fmt::format("{} {}", SlotKindName(slot.kind), slot.index); }

void ConvertFile(const Job& job, bool keep_device_format, FileReport* report) {
  auto fail = [&](Status st) { report->status = std::move(st); };
  Result<BinFile> bin = ReadBinFile(job.input);
  if (!bin.ok()) return fail(bin.status());
  Result<std::shared_ptr<MappedFile>> file = MappedFile::Open(job.input);
  if (!file.ok()) return fail(file.status());
  if (!job.out_dir_error.empty()) {
    return fail(Status::IOError(job.out_dir.string(), "cannot create the directory: " + job.out_dir_error));
  }
  const std::string bin_name = fs::path(job.input).filename().string();
  if (bin->trailing_bytes > 0) {
    report->notes.push_back(fmt::format("{} bytes after the declared data ignored", bin->trailing_bytes));
  }
  for (const BinSlot& slot : bin->slots) {
    if (slot.kind == BinSlotKind::kBuffer || slot.kind == BinSlotKind::kWorkspace) {
      report->skip_reasons.push_back("buffer/workspace");
      report->notes.push_back(SlotLabel(slot) + ": skipped (raw on-chip data, no dtype)");
      continue;
    }
    if (!slot.dtype) {
      const std::string dtype = fmt::format("{} ({})", ProtoDTypeName(slot.proto_dtype), slot.proto_dtype);
      report->skip_reasons.push_back("no decoder for " + dtype);
      report->notes.push_back(fmt::format("{}: skipped: dtype {} has no decoder", SlotLabel(slot), dtype));
      continue;
    }
    const LayoutPlan plan = PlanLayout(slot, keep_device_format);
    if (!plan.note.empty()) report->notes.push_back(SlotLabel(slot) + ": " + plan.note);
    std::string name = SlotFileName(bin_name, slot, plan.format);
    if (name.size() > kMaxFileName) {
      std::string short_name = ShortName(name);
      report->renames.emplace_back(short_name, name);
      name = std::move(short_name);
    }
    Status st = WriteSlotNpy(**file, slot, plan, (job.out_dir / name).string());
    if (!st.ok()) return fail(st);
    ++report->tensors;
  }
  report->bytes_in = (*file)->size();
}

// Adds `rows` to dir/mapping.csv ("new,original", no header), keeping rows already there.
Status WriteMapping(const fs::path& dir, const std::vector<std::pair<std::string, std::string>>& rows) {
  const fs::path path = dir / "mapping.csv";
  std::string text;
  std::set<std::string> have;
  if (std::ifstream in(path); in) {
    for (std::string line; std::getline(in, line);) {
      if (line.empty()) continue;
      have.insert(line.substr(0, line.find(',')));
      text += line + "\n";
    }
  }
  for (const auto& [new_name, original] : rows) {
    if (have.insert(new_name).second) text += new_name + "," + original + "\n";
  }
  return WriteFileAtomically(path.string(), text);
}

std::string HumanBytes(uint64_t bytes) {
  if (bytes >= (uint64_t{1} << 30)) return fmt::format("{:.2f} GiB", bytes / double(uint64_t{1} << 30));
  if (bytes >= (uint64_t{1} << 20)) return fmt::format("{:.1f} MiB", bytes / double(uint64_t{1} << 20));
  return fmt::format("{} B", bytes);
}

}  // namespace

int RunConvert(const ConvertArgs& args, const cli::CommonOptions& common) {
  Result<std::vector<Job>> jobs = FindJobs(args);
  if (!jobs.ok()) return cli::ReportAndExit(kProgram, jobs.status());
  // The output directories are made once, before the parallel part: libstdc++'s create_directories
  // called from several threads at once crashed under ASan (a read of uninitialised memory inside it).
  std::map<fs::path, std::string> dir_errors;
  for (Job& job : *jobs) {
    const auto [it, added] = dir_errors.try_emplace(job.out_dir);
    if (added) {
      std::error_code ec;
      fs::create_directories(job.out_dir, ec);
      if (ec) it->second = ec.message();
    }
    job.out_dir_error = it->second;
  }
  std::vector<FileReport> reports(jobs->size());
  cli::ProgressBar progress("convert", common.quiet);
  std::atomic<uint64_t> done{0};
  tbb::parallel_for(size_t{0}, jobs->size(), [&](size_t i) {
    ConvertFile((*jobs)[i], args.keep_device_format, &reports[i]);
    progress.Update(++done, jobs->size());
  });
  progress.Clear();

  int exit_code = cli::kExitOk;
  std::map<fs::path, std::vector<std::pair<std::string, std::string>>> mappings;
  uint64_t files = 0, tensors = 0, bytes = 0;
  std::map<std::string, uint64_t> skipped;
  for (size_t i = 0; i < reports.size(); ++i) {
    const FileReport& r = reports[i];
    if (!r.status.ok()) {
      exit_code = std::max(exit_code, cli::ReportAndExit(kProgram, r.status));
      continue;
    }
    ++files;
    tensors += r.tensors;
    bytes += r.bytes_in;
    for (const std::string& reason : r.skip_reasons) ++skipped[reason];
    auto& rows = mappings[(*jobs)[i].out_dir];
    rows.insert(rows.end(), r.renames.begin(), r.renames.end());
    if (!common.quiet) {
      for (const std::string& note : r.notes) fmt::print(stderr, "{}: note: {}: {}\n", kProgram, (*jobs)[i].input, note);
    }
  }
  for (const auto& [dir, rows] : mappings) {
    if (rows.empty()) continue;
    const Status st = WriteMapping(dir, rows);
    if (!st.ok()) exit_code = std::max(exit_code, cli::ReportAndExit(kProgram, st));
  }
  if (!common.quiet) {
    uint64_t skipped_total = 0;
    std::string reasons;
    for (const auto& [reason, count] : skipped) {
      skipped_total += count;
      reasons += fmt::format("{}{}: {}", reasons.empty() ? "" : ", ", reason, count);
    }
    fmt::print("{} files, {} tensors written, {} read, {} slots skipped{}{}\n", files, tensors, HumanBytes(bytes),
               skipped_total, reasons.empty() ? "" : " (" + reasons + ")",
               files == jobs->size() ? "" : fmt::format(", {} files failed", jobs->size() - files));
  }
  return exit_code;
}

}  // namespace msprobe::convert_app
