#include "msprobe/dump/kernel/convert_job.h"

#include <fmt/format.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <filesystem>

#include "msprobe/dump/files/file_kind.h"
#include "msprobe/dump/framework/dump_layout.h"
#include "msprobe/dump/framework/output_location.h"
#include "msprobe/dump/io/output_folder.h"
#include "msprobe/dump/kernel/bin_convert.h"
#include "msprobe/dump/kernel/folder_survey.h"
#include "formats/dump_proto_enums_internal.h"
#include "tensor/host_dtype_internal.h"
#include "msprobe/dump/kernel/kernel_dump_name.h"
#include "msprobe/dump/kernel/mapping_csv.h"

namespace msprobe {
namespace {

namespace fs = std::filesystem;

struct Task {
  std::string input;
  fs::path out_dir;
  std::string out_dir_error;  // why out_dir could not be made, empty when it exists
};

// What converting one file leaves for the report besides ConvertedBinFile.
struct FileExtras {
  std::vector<std::string> skip_reasons;                    // one per skipped slot, short, for the summary
  std::vector<std::pair<std::string, std::string>> renames;  // (new, original) for mapping.csv
};

Result<std::vector<Task>> FindTasks(const KernelConvertOptions& options) {
  std::error_code ec;
  const fs::path root(options.dump_path);
  const fs::file_status st = fs::status(root, ec);
  if (ec || !fs::exists(st)) return Status::NotFound(options.dump_path, "no such file or directory");
  std::vector<Task> tasks;
  if (!fs::is_directory(st)) {
    tasks.push_back({options.dump_path, fs::path(options.output_path), {}});
    return tasks;
  }
  for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file() || !IsKernelBinDumpName(it->path().filename().string())) continue;
    tasks.push_back({it->path().string(), fs::path(options.output_path) / it->path().parent_path().lexically_relative(root), {}});
  }
  if (ec) return Status::IOError(options.dump_path, "cannot list the directory: " + ec.message());
  if (tasks.empty()) {
    return Status::InvalidInput(options.dump_path,
                                fmt::format("no kernel .bin dump found; the folder holds {}; msprobe-convert converts "
                                            "the .bin files the Ascend runtime dumps (acl.json dump_path)",
                                            DescribeFolder(SurveyFolder(options.dump_path))));
  }
  std::sort(tasks.begin(), tasks.end(), [](const Task& a, const Task& b) { return NaturalLess(a.input, b.input); });
  return tasks;
}

// The output directories are made once, before the parallel part: libstdc++'s create_directories
// called from several threads at once crashed under ASan (a read of uninitialised memory inside it).
void MakeOutputDirs(std::vector<Task>* tasks) {
  std::map<fs::path, std::string> dir_errors;
  for (Task& task : *tasks) {
    const auto [it, added] = dir_errors.try_emplace(task.out_dir);
    if (added) {
      std::error_code ec;
      fs::create_directories(task.out_dir, ec);
      if (ec) it->second = ec.message();
    }
    task.out_dir_error = it->second;
  }
}

// The .bin header of a kernel dump; a file of another kind (a .pt, a csv) is named as what it is.
Result<BinFile> ReadKernelDump(const MappedFile& file, const std::string& path) {
  MSP_ASSIGN_OR_RETURN(MappedRegion region, file.MapAll());  // virtual only: the parser reads the header
  const FileKind kind = SniffFileKind(region.bytes());
  if (kind != FileKind::kOther) return Status::InvalidInput(path, FileKindName(kind, path) + ", not a kernel .bin dump");
  return ParseBin(region.bytes(), path);
}

std::string SlotLabel(const BinSlot& slot) { return fmt::format("{} {}", SlotKindName(slot.kind), slot.index); }

void ConvertFile(const Task& task, bool keep_device_format, bool pt, ConvertedBinFile* report, FileExtras* extras) {
  auto fail = [&](Status st) { report->status = std::move(st); };
  Result<std::shared_ptr<MappedFile>> file = MappedFile::Open(task.input);
  if (!file.ok()) return fail(file.status());
  Result<BinFile> bin = ReadKernelDump(**file, task.input);
  if (!bin.ok()) return fail(bin.status());
  if (!task.out_dir_error.empty()) {
    return fail(Status::IOError(task.out_dir.string(), "cannot create the directory: " + task.out_dir_error));
  }
  const std::string bin_name = fs::path(task.input).filename().string();
  if (bin->trailing_bytes > 0) {
    report->warnings.push_back(fmt::format("{} bytes after the declared data ignored", bin->trailing_bytes));
  }
  for (const BinSlot& slot : bin->slots) {
    if (slot.kind == BinSlotKind::kBuffer || slot.kind == BinSlotKind::kWorkspace) {
      extras->skip_reasons.push_back("buffer/workspace");
      report->warnings.push_back(SlotLabel(slot) + ": skipped (raw on-chip data, no dtype)");
      continue;
    }
    if (!slot.dtype) {
      const std::string dtype = fmt::format("{} ({})", ProtoDTypeName(slot.proto_dtype), slot.proto_dtype);
      extras->skip_reasons.push_back("no decoder for " + dtype);
      report->warnings.push_back(fmt::format("{}: skipped: dtype {} has no decoder", SlotLabel(slot), dtype));
      continue;
    }
    if (pt && Info(PtDType(*slot.dtype)).storage.empty()) {
      extras->skip_reasons.push_back(fmt::format("{} (no torch dtype)", Name(*slot.dtype)));
      report->warnings.push_back(fmt::format("{}: skipped: {} has no torch dtype (-t npy writes it)", SlotLabel(slot),
                                             Name(*slot.dtype)));
      continue;
    }
    const LayoutPlan plan = PlanLayout(slot, keep_device_format);
    if (!plan.note.empty()) report->notes.push_back(SlotLabel(slot) + ": " + plan.note);
    std::string name = pt ? ConvertedSlotPtName(bin_name, slot) : ConvertedSlotName(bin_name, slot, plan.format);
    if (name.size() > kMaxFileNameBytes) {
      std::string hashed = HashedKernelDumpName(name, pt ? ".pt" : ".npy");
      extras->renames.emplace_back(hashed, name);
      name = std::move(hashed);
    }
    const std::string path = (task.out_dir / name).string();
    Status st = pt ? WriteSlotPt(**file, slot, plan, path) : WriteSlotNpy(**file, slot, plan, path);
    if (!st.ok()) return fail(st);
    ++report->tensors;
  }
  report->bytes_read = (*file)->size();
}

}  // namespace

Result<KernelConvertReport> RunKernelConvert(const KernelConvertOptions& options, const JobContext& context) {
  MSP_RETURN_IF_ERROR(CheckOutputOutsideInputs(options.output_path, /*is_dir=*/true, {options.dump_path}));
  MSP_ASSIGN_OR_RETURN(std::vector<Task> tasks, FindTasks(options));
  // Once, before any file: an -o that cannot be made fails the run with one line, not every file.
  MSP_RETURN_IF_ERROR(MakeOutputFolder(options.output_path, options.output_path, "-o"));
  MakeOutputDirs(&tasks);
  KernelConvertReport report;
  report.files.resize(tasks.size());
  std::vector<FileExtras> extras(tasks.size());
  std::atomic<uint64_t> done{0};
  tbb::parallel_for(size_t{0}, tasks.size(), [&](size_t i) {
    report.files[i].input = tasks[i].input;
    ConvertFile(tasks[i], options.keep_device_format, options.output == KernelConvertOptions::Output::kPt,
                &report.files[i], &extras[i]);
    if (context.progress) context.progress("kernel dumps", ++done, tasks.size());
  });

  std::map<fs::path, std::vector<std::pair<std::string, std::string>>> mappings;  // out dir → its renames
  for (size_t i = 0; i < tasks.size(); ++i) {
    const ConvertedBinFile& file = report.files[i];
    if (!file.status.ok()) continue;
    ++report.converted;
    report.tensors += file.tensors;
    report.bytes_read += file.bytes_read;
    for (const std::string& reason : extras[i].skip_reasons) ++report.skipped[reason];
    auto& rows = mappings[tasks[i].out_dir];
    rows.insert(rows.end(), extras[i].renames.begin(), extras[i].renames.end());
  }
  for (const auto& [dir, rows] : mappings) {
    if (rows.empty()) continue;
    const Status st = AppendMappingCsv((dir / "mapping.csv").string(), rows);
    if (!st.ok()) report.mapping_errors.push_back(st);
  }
  return report;
}

}  // namespace msprobe
