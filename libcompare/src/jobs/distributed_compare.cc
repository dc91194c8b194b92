#include "jobs/distributed_compare_internal.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <new>
#include <numeric>
#include <optional>
#include <tuple>
#include <utility>

#include "cluster/work_share_internal.h"
#include "jobs/pair_compare_internal.h"
#include "jobs/pair_in_memory_internal.h"
#include "jobs/pair_messages_internal.h"
#include "jobs/pair_rules_internal.h"
#include "jobs/pair_steps_internal.h"
#include "jobs/run_plan_internal.h"
#include "jobs/run_progress_internal.h"
#include "jobs/run_recorder_internal.h"
#include "jobs/statistics_slice_compare_internal.h"
#include "jobs/statistics_slice_messages_internal.h"
#include "jobs/statistics_slices_internal.h"
#include "msprobe/dump/framework/dump_json.h"
#include "msprobe/dump/framework/dump_layout.h"
#include "msprobe/dump/util/cluster.h"
#include "msprobe/dump/util/coding.h"

namespace msprobe::compare::internal {
namespace {

namespace fs = std::filesystem;

// The failure a thrown exception stands for, worded as the programs word it (exit 4).
Status ExceptionStatus(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const std::bad_alloc&) {
    return Status::Internal("", "out of memory");
  } catch (const std::exception& ex) {
    return Status::Internal("", fmt::format("internal error: {}", ex.what()));
  } catch (...) {
    return Status::Internal("", "internal error");
  }
}

template <class T, class F>
Result<T> Guarded(F&& f) {
  try {
    return f();
  } catch (...) {
    return ExceptionStatus(std::current_exception());
  }
}

// A pair's size for the shares: its two dump files and the tensor files beside them.
uint64_t PairBytes(const ComparePairSpec& spec) {
  uint64_t bytes = 0;
  for (const std::string& json : {spec.target_json, spec.golden_json}) {
    std::error_code ec;
    const uintmax_t size = fs::file_size(json, ec);
    if (!ec) bytes += size;
    fs::directory_iterator it(TensorDataDir(json), ec);
    for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
      std::error_code entry_ec;
      const uintmax_t file = it->is_regular_file(entry_ec) ? it->file_size(entry_ec) : 0;
      if (!entry_ec) bytes += file;
    }
  }
  return bytes;
}

// How a pair larger than a process's share is split by rows (docs/distributed.md §3): a tensor pair's
// metrics are read row by row from its tensor files; a statistics pair's rows come from parsing its
// dump.json files, each process parsing its range of target entries (jobs/statistics_slices.cc).
enum SplitKind : uint64_t { kWhole = 0, kTensorRows = 1, kStatisticsRows = 2 };

// Every pair's bytes and how its rows may be split, each process measuring every processes()-th
// pair. A pair may be split when it is larger than a process's share; how, only its golden dump's
// header tells: that is read for such pairs only, so a run of many pairs, none larger than a share,
// reads no header.
std::pair<std::vector<uint64_t>, std::vector<uint64_t>> MeasurePairs(Cluster& cluster, const CompareOptions& options,
                                                                     const std::vector<ComparePairSpec>& specs) {
  const int n = cluster.processes();
  // Each process's values, the pairs of its stride in order, all-gathered into one vector.
  const auto all_gather = [&](const auto& measure) {
    std::string mine;
    for (size_t i = cluster.process(); i < specs.size(); i += n) PutVarint64(&mine, measure(i));
    const std::vector<std::string> all = cluster.AllGather(mine);
    std::vector<uint64_t> values(specs.size());
    for (int p = 0; p < n; ++p) {
      DecodeMessage(all[p], "a process's pair measures", [&](Decoder* in) {
        for (size_t i = p; i < specs.size(); i += n) {
          if (!GetVarint64(in, &values[i])) return false;
        }
        return true;
      });
    }
    return values;
  };
  const std::vector<uint64_t> bytes = all_gather([&](size_t i) { return PairBytes(specs[i]); });
  const uint64_t total = std::accumulate(bytes.begin(), bytes.end(), uint64_t{0});
  const std::vector<uint64_t> kinds = all_gather([&](size_t i) -> uint64_t {
    if (options.attribute || bytes[i] * n <= total) return kWhole;
    const std::optional<DumpJsonHeader> header = HeaderBeforeData(specs[i].golden_json);
    if (header && header->task == "tensor" && !options.diff_analyze) return kTensorRows;
    // A statistics slice costs its owner an outline and the writing of every row (§3.1): only a pair
    // of two shares or more is worth it (one just over a share ran 1.8 times as long split).
    return bytes[i] * n >= 2 * total && MayStream(options, specs[i]) ? kStatisticsRows : kWhole;
  });
  return {bytes, kinds};
}

// This process's part in a pair split by rows: the slice it compares, of how many, and for whom.
struct SlicePart {
  size_t pair = 0;
  size_t slice = 0;   // 0: this process owns the pair and writes its files; else it helps
  size_t slices = 0;
  int owner = 0;
  bool owns() const { return slice == 0; }
};

// This process's part in the pair `share` gives, or nullopt when it has none or compares it alone.
std::optional<SlicePart> PartOf(size_t pair, const PairShare& share, int me) {
  const std::vector<int>& who = share.processes;
  const auto at = std::find(who.begin(), who.end(), me);
  if (who.size() == 1 || at == who.end()) return std::nullopt;
  return SlicePart{pair, static_cast<size_t>(at - who.begin()), who.size(), who[0]};
}

// Per process, the messages to send it, one per pair.
using Outbox = std::vector<std::vector<std::string>>;

// A helper's slice of a pair, or why it has none, for the pair's owner.
void SendToOwner(const SlicePart& part, const Status& status, std::string payload, Outbox* to_owners) {
  const PairEntry entry{part.pair, status, std::move(payload)};
  (*to_owners)[part.owner].push_back(EncodeEntry(entry));
}

// A tensor pair held by its owner: prepared, with its own slice first and the helpers' as they come.
struct HeldTensorPair {
  PreparedPair prepared;
  std::vector<MetricSlice> slices;
  std::optional<Status> failed;  // the first helper's failure, which fails the pair
};
// A statistics pair held by its owner: its outputs, fed the owner's own slice as it was compared, and
// each helper's slice as it came, by slice (slice 0 is unused): its rows made ready for the files, or
// with a workbook, -da or --html its batches of rows encoded (decoded one at a time).
struct HeldStatisticsPair {
  SlicedOutputs outputs;
  std::vector<Result<std::string>> slices;
};

// One process's part of a distributed run.
class ProcessShare {
 public:
  // `run_progress`: the whole run's bar on process 0, nothing on the others; `progress` is its callback.
  ProcessShare(const CompareOptions& options, const JobContext& context, const RunPlan& plan,
               RunProgress& run_progress, const Progress& progress)
      : options_(options), context_(context), cluster_(*context.cluster), plan_(plan), run_progress_(run_progress),
        steps_(options, plan.mappings, progress), in_memory_(steps_), compare_(steps_), statistics_(steps_),
        recorder_(options, plan.skipped_inputs) {}

  Result<CompareReport> Run();

 private:
  void Fail(size_t pair, const Status& status) {
    if (context_.on_failure) context_.on_failure(status);
    done_.emplace(pair, status);
  }
  void Settle(size_t pair, Result<PairOutcome> outcome) {
    if (outcome.ok()) {
      run_progress_.Finished(plan_.specs[pair].target_json);
      done_.emplace(pair, std::move(outcome));
    } else {
      Fail(pair, outcome.status());
    }
  }
  // The owners of split statistics pairs plan their slices and send each process its own; a pair the
  // plan leaves whole joins its owner's whole pairs.
  void PlanStatisticsPairs(const std::vector<PairShare>& shares, const std::vector<uint64_t>& kinds);
  void CompareWholePairs(const std::vector<size_t>& order);
  // Pairs split by rows (docs/distributed.md §3): each process compares its slice of every pair it
  // shares; the helpers' slices reach the owners in one exchange, and the owners conclude the pairs.
  void CompareSplitPairs(const std::vector<PairShare>& shares, const std::vector<uint64_t>& kinds);
  // A tensor pair: every process sharing it prepares it alike and computes the metrics of its rows.
  void CompareTensorSlice(const SlicePart& part, Outbox* to_owners);
  // A statistics pair: every process sharing it compares its planned slice in batches of finished rows.
  void CompareStatisticsSlice(const SlicePart& part, Outbox* to_owners);
  // The owner: a helper's slice of a pair it holds.
  void ReceiveSlice(const PairShare& share, int from, PairEntry entry);
  // The owner: each statistics pair held, its helpers' slices appended in slice order, concluded.
  void ConcludeStatisticsPairs();
  Status AppendHelperSlices(size_t pair, HeldStatisticsPair* held);
  // The owner: each tensor pair held, concluded with every slice's metrics, or failed as a helper did.
  void ConcludeTensorPairs();
  // Process 0: every pair's outcome in pair order, or the first failure; -da's marks.
  Result<std::vector<XlsxMark>> GatherOutcomes();
  // Commits the xlsx files held here; process 0 gathers their names.
  Status CommitXlsx(const std::vector<XlsxMark>& marks);

  const CompareOptions& options_;
  const JobContext& context_;
  Cluster& cluster_;
  const RunPlan& plan_;
  RunProgress& run_progress_;
  const PairSteps steps_;
  const PairInMemory in_memory_;        // tensor pairs split by rows
  const PairCompare compare_;           // whole pairs
  const StatisticsSliceCompare statistics_;  // statistics pairs split by entries
  RunRecorder recorder_;
  std::map<size_t, Result<PairOutcome>> done_;  // the pairs this process owns, in pair order
  std::map<size_t, StatisticsSlice> slices_;     // split statistics pairs: this process's slice of each
  std::vector<size_t> whole_;                    // the pairs this process compares whole, in pair order
  std::map<size_t, Clock::time_point> started_;  // split statistics pairs owned: when they began
  // Split pairs owned, between this process's slice and the helpers'.
  std::map<size_t, HeldTensorPair> held_tensors_;
  std::map<size_t, HeldStatisticsPair> held_statistics_;
};

void ProcessShare::PlanStatisticsPairs(const std::vector<PairShare>& shares, const std::vector<uint64_t>& kinds) {
  const int me = cluster_.process();
  std::vector<std::vector<std::string>> outbox(cluster_.processes());
  for (size_t i = 0; i < shares.size(); ++i) {
    const std::vector<int>& who = shares[i].processes;
    if (who[0] != me) continue;
    if (who.size() == 1) {
      whole_.push_back(i);
      continue;
    }
    if (kinds[i] != kStatisticsRows) continue;
    started_[i] = Clock::now();
    std::optional<std::vector<StatisticsSlice>> plan;
    try {
      plan = PlanStatisticsSlices(options_, plan_.specs[i], who.size());
    } catch (...) {  // out of memory outlining: the whole compare says so, or copes
    }
    if (!plan) {
      whole_.push_back(i);
      continue;
    }
    for (size_t s = 1; s < who.size(); ++s) {
      outbox[who[s]].push_back(EncodeEntry({i, Status::Ok(), EncodeStatisticsSlice((*plan)[s])}));
    }
    slices_.emplace(i, std::move((*plan)[0]));
  }
  std::vector<std::string> to(cluster_.processes());
  for (size_t p = 0; p < to.size(); ++p) to[p] = PackStrings(outbox[p]);
  for (const std::string& message : cluster_.Exchange(to)) {
    for (const std::string& bytes : UnpackStrings(message)) {
      const PairEntry entry = DecodeEntry(bytes);
      slices_.emplace(entry.pair, DecodeStatisticsSlice(entry.payload));
    }
  }
  std::sort(whole_.begin(), whole_.end());
}

void ProcessShare::CompareWholePairs(const std::vector<size_t>& order) {
  std::vector<ComparePairSpec> mine;
  for (size_t i : order) mine.push_back(plan_.specs[i]);
  const Status stopped = CompareEach(compare_, plan_.specs, order, PairsInFlight(mine, cluster_.local_processes()),
                                     [&](PairAttempt attempt) -> Status {
                                       if (attempt.exception) {
                                         Fail(attempt.pair, ExceptionStatus(attempt.exception));
                                         return done_.at(attempt.pair).status();
                                       }
                                       Settle(attempt.pair, std::move(attempt.outcome));
                                       return Status::Ok();
                                     });
  // After a pair threw, the rest were not begun: they fail as that one did.
  for (size_t i : order) {
    if (!stopped.ok() && done_.count(i) == 0) done_.emplace(i, stopped);
  }
}

void ProcessShare::CompareSplitPairs(const std::vector<PairShare>& shares, const std::vector<uint64_t>& kinds) {
  Outbox to_owners(cluster_.processes());
  for (size_t i = 0; i < shares.size(); ++i) {
    const std::optional<SlicePart> part = PartOf(i, shares[i], cluster_.process());
    if (!part) continue;
    if (kinds[i] == kStatisticsRows) {
      CompareStatisticsSlice(*part, &to_owners);
    } else {
      CompareTensorSlice(*part, &to_owners);
    }
  }
  // Each buffer is let go once the next holds its bytes (what a process received, once unpacked): a
  // statistics slice's are hundreds of megabytes.
  std::vector<std::string> to(cluster_.processes());
  for (size_t p = 0; p < to.size(); ++p) to[p] = PackStrings(std::exchange(to_owners[p], {}));
  std::vector<std::string> received = cluster_.Exchange(std::exchange(to, {}));
  for (size_t from = 0; from < received.size(); ++from) {
    for (const std::string& bytes : UnpackStrings(std::exchange(received[from], {}))) {
      PairEntry entry = DecodeEntry(bytes);
      ReceiveSlice(shares[entry.pair], static_cast<int>(from), std::move(entry));
    }
  }
  ConcludeStatisticsPairs();
  ConcludeTensorPairs();
}

void ProcessShare::CompareTensorSlice(const SlicePart& part, Outbox* to_owners) {
  Result<PreparedPair> prepared = Guarded<PreparedPair>([&] { return in_memory_.Prepare(plan_.specs[part.pair]); });
  if (prepared.ok() && prepared->skipped) {  // a side has no rows: the owner says so, no one computes
    if (part.owns()) Settle(part.pair, std::move(prepared->outcome));
    return;
  }
  size_t begin = 0, end = 0;
  Result<MetricSlice> computed = Guarded<MetricSlice>([&]() -> Result<MetricSlice> {
    MSP_RETURN_IF_ERROR(prepared.status());
    std::tie(begin, end) = SliceRows(prepared->table.rows.size(), part.slice, part.slices);
    return in_memory_.ComputeSlice(&*prepared, begin, end);
  });
  if (part.owns()) {  // holds its slice, in the prepared rows, until the helpers' come
    if (!computed.ok()) return Fail(part.pair, computed.status());
    held_tensors_.emplace(part.pair, HeldTensorPair{std::move(*prepared), {std::move(*computed)}, std::nullopt});
    return;
  }
  // A helper: its rows' metrics go to the owner, which has the rest of each row.
  if (!computed.ok()) return SendToOwner(part, computed.status(), "", to_owners);
  for (size_t r = begin; r < end; ++r) computed->metrics.push_back(std::move(prepared->table.rows[r].metrics));
  SendToOwner(part, Status::Ok(), EncodeSlice(*computed), to_owners);
}

void ProcessShare::CompareStatisticsSlice(const SlicePart& part, Outbox* to_owners) {
  const auto planned = slices_.find(part.pair);
  if (planned == slices_.end()) return;  // compared whole by its owner
  const ComparePairSpec& spec = plan_.specs[part.pair];
  const StatisticsSlice& mine = planned->second;
  if (part.owns()) {  // appends its batches to the pair's outputs as they come
    HeldStatisticsPair& held = held_statistics_[part.pair];
    held.slices.resize(part.slices, Status::Internal("", "no slice"));
    const Result<SliceRead> read = Guarded<SliceRead>([&] {
      return statistics_.CompareSlice(
          spec, mine, [&](const SliceTable& batch) { return statistics_.AppendSlice(spec, mine, batch, &held.outputs); });
    });
    if (read.ok()) held.outputs.Count(*read); else held.outputs.whole = true;
    return;
  }
  // A helper: what else it read, then its rows made ready for the owner's outputs (or, with a
  // workbook, -da or --html, its batches of rows encoded). Each copy on the way lets go of the one
  // before it: a slice's rows rendered are hundreds of megabytes.
  Result<SliceRead> read = Status::Internal("", "not compared");
  std::string payload;
  {
    std::vector<std::string> batches(1);
    std::optional<PairOutputsPart> rendered;
    if (RowsRenderApart(options_)) rendered.emplace(options_);
    read = Guarded<SliceRead>([&] {
      return statistics_.CompareSlice(spec, mine, [&](const SliceTable& batch) {
        if (rendered) {
          rendered->Add(batch.table);
        } else {
          batches.push_back(EncodeSliceTable(batch));
        }
        return Status::Ok();
      });
    });
    if (read.ok()) {
      batches[0] = EncodeSliceRead(*read);
      if (rendered) batches.push_back(EncodeSlicePart(*rendered));
      rendered.reset();
      payload = PackStrings(batches);
    }
  }
  SendToOwner(part, read.status(), std::move(payload), to_owners);
}

void ProcessShare::ReceiveSlice(const PairShare& share, int from, PairEntry entry) {
  if (const auto held = held_statistics_.find(entry.pair); held != held_statistics_.end()) {
    const std::vector<int>& who = share.processes;
    Result<std::string>& slice = held->second.slices.at(std::find(who.begin(), who.end(), from) - who.begin());
    slice = entry.status.ok() ? Result<std::string>(std::move(entry.payload)) : std::move(entry.status);
  } else if (const auto held = held_tensors_.find(entry.pair); held != held_tensors_.end()) {
    if (entry.status.ok()) {
      held->second.slices.push_back(DecodeSlice(entry.payload));
    } else if (!held->second.failed) {
      held->second.failed = std::move(entry.status);
    }
  }
  // Else the owner failed its own slice of the pair, or found no rows to compare.
}

void ProcessShare::ConcludeStatisticsPairs() {
  for (auto& held : held_statistics_) {  // (clang 14 captures no structured bindings)
    const size_t i = held.first;
    Settle(i, Guarded<PairOutcome>([&]() -> Result<PairOutcome> {
             MSP_RETURN_IF_ERROR(AppendHelperSlices(i, &held.second));
             return statistics_.ConcludeSlices(plan_.specs[i], slices_.at(i), std::move(held.second.outputs),
                                               started_.at(i));
           }));
  }
  held_statistics_.clear();
}

Status ProcessShare::AppendHelperSlices(size_t pair, HeldStatisticsPair* held) {
  SlicedOutputs& outputs = held->outputs;
  for (size_t s = 1; s < held->slices.size() && !outputs.whole; ++s) {
    if (!held->slices[s].ok()) {
      outputs.whole = true;
      break;
    }
    std::vector<std::string> batches = UnpackStrings(*std::exchange(held->slices[s], std::string()));
    outputs.Count(DecodeSliceRead(batches.at(0)));
    const ComparePairSpec& spec = plan_.specs[pair];
    for (size_t b = 1; b < batches.size(); ++b) {
      const std::string bytes = std::exchange(batches[b], std::string());
      if (RowsRenderApart(options_)) {
        PairOutputsPart rendered(options_);
        DecodeSlicePart(bytes, &rendered);
        MSP_RETURN_IF_ERROR(statistics_.AppendSlice(spec, slices_.at(pair), rendered, &outputs));
      } else {
        MSP_RETURN_IF_ERROR(statistics_.AppendSlice(spec, slices_.at(pair), DecodeSliceTable(bytes), &outputs));
      }
    }
  }
  return Status::Ok();
}

void ProcessShare::ConcludeTensorPairs() {
  for (auto& held : held_tensors_) {
    const size_t i = held.first;
    HeldTensorPair& pair = held.second;
    if (pair.failed) {
      Fail(i, *pair.failed);
      continue;
    }
    std::vector<MetricSlice>& slices = pair.slices;
    std::sort(slices.begin(), slices.end(), [](const MetricSlice& a, const MetricSlice& b) { return a.begin < b.begin; });
    Settle(i, Guarded<PairOutcome>([&] { return in_memory_.Conclude(plan_.specs[i], std::move(pair.prepared), slices); }));
  }
  held_tensors_.clear();
}

Result<std::vector<XlsxMark>> ProcessShare::GatherOutcomes() {
  std::vector<std::string> entries;
  for (auto& [i, outcome] : done_) {
    if (!outcome.ok()) {
      entries.push_back(EncodeEntry({i, outcome.status(), ""}));
      continue;
    }
    if (outcome->pending_xlsx) {  // its rows stay here, in the xlsx's spool
      recorder_.KeepXlsx(i, std::move(*outcome->pending_xlsx));
      outcome->pending_xlsx.reset();
    }
    entries.push_back(EncodeEntry({i, Status::Ok(), EncodeOutcome(*outcome)}));
  }
  done_.clear();
  const std::vector<std::string> gathered = cluster_.Gather(PackStrings(entries));
  if (!cluster_.root()) return std::vector<XlsxMark>();
  std::vector<std::optional<Result<PairOutcome>>> all(plan_.specs.size());
  for (const std::string& message : gathered) {
    for (const std::string& bytes : UnpackStrings(message)) {
      PairEntry entry = DecodeEntry(bytes);
      // The other processes' pairs move the bar only now: they report nothing while they run.
      if (entry.status.ok()) run_progress_.Finished(plan_.specs.at(entry.pair).target_json);
      all.at(entry.pair) =
          entry.status.ok() ? Result<PairOutcome>(DecodeOutcome(entry.payload)) : std::move(entry.status);
    }
  }
  // The first failure in pair order is the run's, as in one process; the pairs that wrote their files
  // are still recorded, so that summary.json names them with the error.
  Status failed;
  for (size_t i = 0; i < all.size(); ++i) {
    if (!all[i]) return Status::Internal("", fmt::format("no process compared pair {}", i));  // a bug
    if (failed.ok()) failed = all[i]->status();
  }
  for (size_t i = 0; i < all.size(); ++i) {
    if (all[i]->ok()) recorder_.Record(i, std::move(**all[i]));
  }
  if (!failed.ok()) return std::move(recorder_).Fail(failed);
  if (!options_.diff_analyze) return std::vector<XlsxMark>();
  return recorder_.AnalyzeFirstDiff();
}

Status ProcessShare::CommitXlsx(const std::vector<XlsxMark>& marks) {
  Result<std::vector<std::pair<size_t, std::vector<std::string>>>> written = recorder_.CommitXlsx(marks);
  std::vector<std::string> entries;
  if (written.ok()) {
    for (const auto& [pair, files] : *written) entries.push_back(EncodeEntry({pair, Status::Ok(), PackStrings(files)}));
  }
  const std::vector<std::string> gathered =
      cluster_.Gather(PackStrings({EncodeStatus(written.status()), PackStrings(entries)}));
  for (const std::string& message : gathered) {  // process 0 only
    const std::vector<std::string> parts = UnpackStrings(message);
    MSP_RETURN_IF_ERROR(DecodeStatus(parts[0]));
    for (const std::string& bytes : UnpackStrings(parts[1])) {
      const PairEntry entry = DecodeEntry(bytes);
      recorder_.AddOutputs(entry.pair, UnpackStrings(entry.payload));
    }
  }
  return Status::Ok();
}

Result<CompareReport> ProcessShare::Run() {
  const auto [bytes, kinds] = MeasurePairs(cluster_, options_, plan_.specs);
  std::vector<bool> splittable(kinds.size());
  for (size_t i = 0; i < kinds.size(); ++i) splittable[i] = kinds[i] != kWhole;
  const std::vector<PairShare> shares = SharePairs(bytes, splittable, cluster_.processes());
  PlanStatisticsPairs(shares, kinds);
  CompareWholePairs(whole_);
  CompareSplitPairs(shares, kinds);
  Result<std::vector<XlsxMark>> marks = GatherOutcomes();
  // Process 0 tells everyone whether the run goes on, and -da's marks for the xlsx files they hold.
  const std::vector<std::string> decision = UnpackStrings(cluster_.Broadcast(PackStrings(
      {EncodeStatus(marks.status()), marks.ok() ? EncodeMarks(*marks) : EncodeMarks({})})));
  MSP_RETURN_IF_ERROR(DecodeStatus(decision[0]));
  MSP_RETURN_IF_ERROR(CommitXlsx(DecodeMarks(decision[1])));
  if (!cluster_.root()) return CompareReport();
  return std::move(recorder_).Finish();
}

}  // namespace

Result<CompareReport> RunDistributedCompare(const CompareOptions& options, const JobContext& context) {
  Result<RunPlan> plan = Guarded<RunPlan>([&] { return PlanRun(options); });
  MSP_RETURN_IF_ERROR(AgreeOnFailure(*context.cluster, plan.status()));
  // One bar for the whole run, on process 0 only (docs/distributed.md §5): its total, every pair's,
  // fixed before the shares are measured.
  const Progress none;
  RunProgress run_progress(context.cluster->root() ? context.progress : none, plan->specs);
  const Progress progress = run_progress.callback();  // the steps keep a reference
  ProcessShare share(options, context, *plan, run_progress, progress);
  return share.Run();
}

}  // namespace msprobe::compare::internal
