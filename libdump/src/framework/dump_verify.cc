#include "msprobe/dump/framework/dump_verify.h"

#include <fmt/format.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <set>

#include "msprobe/dump/framework/dump_layout.h"
#include "msprobe/dump/tensor/element_types.h"
#include "msprobe/dump/files/tensor_file.h"
#include "msprobe/dump/tensor/tensor_source.h"

namespace msprobe {
namespace {

// Relative tolerance for a recorded statistic. msprobe's values come from torch reductions in the
// tensor's own dtype (fp16/bf16 with low precision) or in float32 (everything else, including the
// int and float64 casts of older versions); ours are in double (docs/formats.md §1.4).
double Tolerance(DType recorded) {
  switch (recorded) {
    case DType::kBF16: return 1.6e-2;  // 2^-6: a few bf16 ulps
    case DType::kF16: return 4e-3;     // 2^-8: a few fp16 ulps
    default: return 1e-5;              // float32 reduction over large tensors
  }
}

bool Close(double recorded, double computed, double rtol, double atol) {
  if (std::isnan(recorded) || std::isnan(computed)) return std::isnan(recorded) && std::isnan(computed);
  if (std::isinf(recorded) || std::isinf(computed)) return recorded == computed;
  return std::fabs(recorded - computed) <= atol + rtol * std::max(std::fabs(recorded), std::fabs(computed));
}

// The largest finite value of the type msprobe's Mean/Norm reductions run in (docs/formats.md §1.4):
// float16 and bfloat16 reduce in their own precision; everything else in float32 (float32 tensors, and
// the float32 casts older versions made of ints and float64). Where a version or a device reduces in a
// wider type, the smaller limit only accepts more overflows, never refuses a finite value.
double ReductionMax(DType d) {
  switch (d) {
    case DType::kF16: return 65504.0;
    case DType::kBF16: return 3.3895313892515355e38;  // 0x7f7f
    default: return std::numeric_limits<float>::max();
  }
}

// Whether a non-finite recorded Mean or Norm is what the reduction in msprobe's dtype gives although our
// double one is finite. torch (CPU, 1.13; docs/formats.md §1.4) takes the mean as a sum in the dtype
// divided by n, and the norm as the square root of a sum of squares in the dtype, without scaling, so
// either is ±inf once a partial sum passes the dtype's max, whatever the final value. The partial sums of
// a sum of squares never exceed the total; those of a plain sum stay within [-negative, positive] and
// which of them overflow depends on the order: +inf needs positive ≥ max, -inf negative ≥ max, NaN (a
// +inf and a -inf partial sum meeting) both. `limit` is the dtype's max less its rounding allowance.
bool OverflowExplains(const char* name, double recorded, double computed, const TensorStats& stats, double limit,
                      const SignedSumsFn& signed_sums) {
  if (std::isfinite(recorded) || !std::isfinite(computed)) return false;
  if (std::string_view(name) == "Norm") return recorded > 0 && computed * computed >= limit;
  if (std::string_view(name) != "Mean") return false;
  const double sum = computed * static_cast<double>(stats.numel);
  SignedSums s;
  if (stats.min >= 0) {
    s.positive = sum;
  } else if (stats.max <= 0) {
    s.negative = -sum;
  } else {
    // Both signs: the sum alone bounds the side it leans to from below; ask for the real sums only
    // when that does not settle it.
    s.positive = std::max(sum, 0.0);
    s.negative = std::max(-sum, 0.0);
    const bool settled = std::isnan(recorded) ? false : (recorded > 0 ? s.positive : s.negative) >= limit;
    if (!settled && signed_sums) {
      if (Result<SignedSums> r = signed_sums(); r.ok()) s = *r;
    }
  }
  if (std::isnan(recorded)) return s.positive >= limit && s.negative >= limit;
  return (recorded > 0 ? s.positive : s.negative) >= limit;
}

std::string Where(const TensorRecord& r) { return r.path.empty() ? r.entry : r.entry + "." + r.path; }

// A dtype recorded in the json may legitimately differ from the file's: MindSpore saves bf16 and
// float8 tensors as float32 .npy files (docs/formats.md §6.1).
bool DTypeCompatible(DType recorded, DType stored) {
  return recorded == stored || ((recorded == DType::kBF16 || IsFloat8(recorded)) && stored == DType::kF32);
}

std::optional<DType> RecordedDType(const TensorRecord& r) {
  if (r.type == "numpy.ndarray") return FromName(r.dtype);
  return FromDumpName(r.dtype);
}

void CheckMd5(const TensorRecord& r, const TensorStats& stats, const std::string& file,
              std::vector<VerifyIssue>* issues) {
  const std::string& md5 = *r.md5;
  std::string computed;
  bool agree = true;
  if (md5.size() == 8) {  // summary_mode md5: CRC-32 of the raw bytes, or (older, MindSpore) of float32
    const std::string raw = fmt::format("{:08x}", stats.crc32);
    const std::string f32 = fmt::format("{:08x}", stats.crc32_f32);
    agree = md5 == raw || (stats.crc32_f32 != 0 && md5 == f32);
    computed = raw;
  } else if (md5.size() == 18 && md5.starts_with("0x")) {  // summary_mode xor
    computed = fmt::format("0x{:016x}", stats.xor64);
    agree = md5 == computed;
  } else {
    return;  // the 0-d xor quirk writes the value itself; Max/Min already cover it
  }
  if (!agree) {
    issues->push_back({VerifyFinding::kMismatch, file, Where(r), fmt::format("md5 recorded {}, computed {}", md5, computed)});
  }
}

}  // namespace

std::string_view FindingName(VerifyFinding f) {
  switch (f) {
    case VerifyFinding::kMismatch: return "mismatch";
    case VerifyFinding::kMissing: return "missing";
    case VerifyFinding::kUnreadable: return "unreadable";
    case VerifyFinding::kUnreferenced: return "unreferenced";
    case VerifyFinding::kEmpty: return "empty";
  }
  return "?";
}

Result<SignedSums> ComputeSignedSums(const TensorSource& source) {
  SignedSums sums;
  const DType dtype = source.info().dtype;
  MSP_RETURN_IF_ERROR(source.ForEachWindow([&](uint64_t, uint64_t count, Bytes bytes) {
    for (uint64_t i = 0; i < count; ++i) {
      const double v = ElementToDouble(dtype, bytes.data(), i);
      if (v > 0) sums.positive += v;
      if (v < 0) sums.negative -= v;
    }
  }));
  return sums;
}

void CheckRecord(const TensorRecord& r, const TensorInfo& info, const TensorStats& stats, const std::string& file,
                 std::vector<VerifyIssue>* issues, const SignedSumsFn& signed_sums) {
  const auto mismatch = [&](std::string detail) {
    issues->push_back({VerifyFinding::kMismatch, file, Where(r), std::move(detail)});
  };
  const std::optional<DType> recorded = RecordedDType(r);
  if (!recorded) {
    mismatch(fmt::format("dtype recorded \"{}\" is no dtype msprobe writes, file holds {}", r.dtype, Name(info.dtype)));
    return;
  }
  if (!DTypeCompatible(*recorded, info.dtype)) {
    mismatch(fmt::format("dtype recorded {}, file holds {}", r.dtype, Name(info.dtype)));
    return;
  }
  if (r.shape != info.shape) {
    mismatch(fmt::format("shape recorded [{}], file holds {}", fmt::join(r.shape, ", "), info.ShapeString()));
    return;
  }
  const DType reduced = *recorded;
  const double rtol = Tolerance(reduced);
  // A reduction whose partial sum passed the dtype's max (within its rounding) may have given ±inf.
  // A 0-d tensor's statistics are its value: no reduction.
  const double overflow_limit = ReductionMax(reduced) * (1 - rtol);
  // The error of a float32 sum is bounded by eps·Σ|x| ≤ eps·√n·‖x‖, so a mean near zero needs an
  // absolute allowance of rtol·‖x‖/√n.
  const double mean_atol = stats.numel ? rtol * stats.norm / std::sqrt(static_cast<double>(stats.numel)) : 0;
  // msprobe writes a 0-d tensor's value for all four statistics, Norm included (docs/formats.md §1.4).
  const double norm = info.shape.empty() ? stats.mean : stats.norm;
  const struct { const char* name; const RecordedStat& rec; double computed; double atol; } checks[] = {
      {"Max", r.max, stats.max, 0}, {"Min", r.min, stats.min, 0},
      {"Mean", r.mean, stats.mean, mean_atol}, {"Norm", r.norm, norm, 0}};
  for (const auto& c : checks) {
    if (c.rec.kind == RecordedStat::Kind::kAbsent || c.rec.kind == RecordedStat::Kind::kNull) continue;
    if (c.rec.kind == RecordedStat::Kind::kOther) {
      mismatch(fmt::format("{} recorded is not a number", c.name));
      continue;
    }
    if (!stats.has_values) {
      mismatch(fmt::format("{} recorded {} for a tensor with no elements", c.name, c.rec.number));
    } else if (!Close(c.rec.number, c.computed, rtol, c.atol) &&
               (info.shape.empty() ||
                !OverflowExplains(c.name, c.rec.number, c.computed, stats, overflow_limit, signed_sums))) {
      mismatch(fmt::format("{} recorded {}, computed {}", c.name, c.rec.number, c.computed));
    }
  }
  if (r.md5) CheckMd5(r, stats, file, issues);
}


Result<VerifyReport> RunVerify(const VerifyOptions& options, const JobContext& context) {
  VerifyReport report;
  MSP_ASSIGN_OR_RETURN(report.json_files, FindDumpJsonFiles(options.path));
  struct Job { const TensorRecord* record; std::string file; };
  std::vector<DumpJson> dumps;
  dumps.reserve(report.json_files.size());
  std::vector<Job> jobs;
  std::vector<VerifyIssue> unreferenced_issues;  // reported after the per-file findings
  for (const std::string& json : report.json_files) {
    MSP_ASSIGN_OR_RETURN(DumpJson dump, ReadDumpJson(json));
    dumps.push_back(std::move(dump));
  }
  if (!dumps.empty()) report.task = dumps[0].task;
  std::vector<VerifyIssue> empty_issues;  // json files of no entry beside others (all empty: refused below)
  for (const DumpJson& dump : dumps) {
    if (dump.entries == 0 && dumps.size() > 1) {
      empty_issues.push_back({VerifyFinding::kEmpty, dump.path, "", "its \"data\" holds no API entries: nothing verified"});
    }
  }
  if (empty_issues.size() == dumps.size()) empty_issues.clear();
  for (const DumpJson& dump : dumps) {
    report.tensor_records += dump.tensors.size();
    const std::string tensor_dir = TensorDataDir(dump.path);
    std::set<std::string> referenced;
    for (const TensorRecord& r : dump.tensors) {
      if (!r.data_name) continue;
      Result<std::string> file = ResolveDataName(tensor_dir, *r.data_name);
      if (!file.ok()) {
        // The refusal names the data_name as it can be shown (a NUL as \0).
        ++report.files_unreadable;
        report.issues.push_back({VerifyFinding::kUnreadable, file.status().source(), Where(r), file.status().message()});
        continue;
      }
      referenced.insert(std::filesystem::path(*file).filename().string());
      jobs.push_back({&r, *file});
    }
    std::error_code ec;
    std::vector<std::string> unreferenced;
    for (std::filesystem::directory_iterator it(tensor_dir, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      if (!referenced.count(name)) unreferenced.push_back(it->path().string());
    }
    std::sort(unreferenced.begin(), unreferenced.end());
    for (std::string& f : unreferenced) {
      unreferenced_issues.push_back({VerifyFinding::kUnreferenced, std::move(f), "", "no tensor object in the json names this file"});
    }
  }

  std::vector<std::vector<VerifyIssue>> found(jobs.size());
  std::vector<uint64_t> bytes(jobs.size());
  // Only the files read count as checked (a missing one is no "file checked").
  enum class Outcome : uint8_t { kChecked, kMissing, kUnreadable };
  std::vector<Outcome> outcomes(jobs.size(), Outcome::kChecked);
  std::atomic<uint64_t> done{0};
  tbb::parallel_for(size_t{0}, jobs.size(), [&](size_t i) {
    const Job& job = jobs[i];
    const auto finish = [&] { if (context.progress) context.progress("tensor files", ++done, jobs.size()); };
    std::error_code ec;
    if (!std::filesystem::exists(job.file, ec)) {
      found[i].push_back({VerifyFinding::kMissing, job.file, Where(*job.record), "file named by data_name does not exist"});
      outcomes[i] = Outcome::kMissing;
      return finish();
    }
    Result<TensorInfo> info = ReadTensorFile(job.file);
    Result<TensorSource> source = info.ok() ? TensorSource::Open(*info) : Result<TensorSource>(info.status());
    StatsOptions options;
    options.crc32_as_float32 = true;
    Result<TensorStats> stats = source.ok() ? ComputeStats(*source, options) : Result<TensorStats>(source.status());
    if (!stats.ok()) {
      found[i].push_back({VerifyFinding::kUnreadable, job.file, Where(*job.record), stats.status().message()});
      outcomes[i] = Outcome::kUnreadable;
      return finish();
    }
    bytes[i] = ByteSize(info->dtype, info->Numel());
    CheckRecord(*job.record, *info, *stats, job.file, &found[i], [&] { return ComputeSignedSums(*source); });
    finish();
  });
  for (size_t i = 0; i < jobs.size(); ++i) {
    report.files_checked += outcomes[i] == Outcome::kChecked;
    report.files_missing += outcomes[i] == Outcome::kMissing;
    report.files_unreadable += outcomes[i] == Outcome::kUnreadable;
    report.bytes_read += bytes[i];
    for (VerifyIssue& issue : found[i]) report.issues.push_back(std::move(issue));
  }
  for (VerifyIssue& issue : unreferenced_issues) report.issues.push_back(std::move(issue));
  for (VerifyIssue& issue : empty_issues) report.issues.push_back(std::move(issue));
  if (jobs.empty()) {
    // What was checked instead, for the summary: the entries the json files hold.
    for (const DumpJson& dump : dumps) report.entries += dump.entries;
    // Nothing to verify is refused as recompute refuses it (docs/ops.md §6), never an "ok".
    if (report.entries == 0) {
      const bool one = report.json_files.size() == 1;
      return Status::InvalidInput(
          one ? report.json_files[0] : options.path,
          one ? "its \"data\" holds no API entries: nothing to verify"
              : fmt::format("none of its {} json files' \"data\" holds an API entry: nothing to verify",
                            report.json_files.size()));
    }
  }
  return report;
}

}  // namespace msprobe
