#include "jobs/distributed_compare_internal.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <numeric>
#include <new>
#include <utility>

#include "cluster/work_share_internal.h"
#include "jobs/compare_run_internal.h"
#include "jobs/pair_messages_internal.h"
#include "jobs/run_report_internal.h"
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

// What a slice read besides its rows, added to its pair's.
void CountRead(const SliceRead& read, SlicedOutputs* outputs) {
  outputs->golden_rows += read.golden_rows;
  outputs->md5 = outputs->md5 || read.md5;
}

// One process's part of a distributed run.
class ProcessShare {
 public:
  ProcessShare(const CompareOptions& options, const Distribution& distribution, const RunPlan& plan,
               const CompareProgress& progress)
      : options_(options), distribution_(distribution), cluster_(*distribution.cluster), plan_(plan),
        run_(options, plan.mappings, progress) {}

  Result<CompareReport> Run();

 private:
  void Fail(size_t pair, const Status& status) {
    if (distribution_.on_failure) distribution_.on_failure(status);
    done_.emplace(pair, status);
  }
  // The owners of split statistics pairs plan their slices and send each process its own; a pair the
  // plan leaves whole joins its owner's whole pairs.
  void PlanStatisticsPairs(const std::vector<PairShare>& shares, const std::vector<uint64_t>& kinds);
  void CompareWholePairs(const std::vector<size_t>& order);
  void CompareSplitPairs(const std::vector<PairShare>& shares, const std::vector<uint64_t>& kinds);
  // Process 0: every pair's outcome in pair order, or the first failure; -da's marks.
  Result<std::vector<XlsxMark>> GatherOutcomes();
  // Commits the xlsx files held here; process 0 gathers their names.
  Status CommitXlsx(const std::vector<XlsxMark>& marks);

  const CompareOptions& options_;
  const Distribution& distribution_;
  Cluster& cluster_;
  const RunPlan& plan_;
  CompareRun run_;
  std::map<size_t, Result<PairOutcome>> done_;  // the pairs this process owns, in pair order
  std::map<size_t, StatisticsSlice> slices_;     // split statistics pairs: this process's slice of each
  std::vector<size_t> whole_;                    // the pairs this process compares whole, in pair order
  std::map<size_t, Clock::time_point> started_;  // split statistics pairs owned: when they began
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
  const Status stopped = CompareEach(run_, plan_.specs, order, PairsInFlight(mine, cluster_.local_processes()),
                                     [&](PairAttempt attempt) -> Status {
                                       if (attempt.exception) {
                                         Fail(attempt.pair, ExceptionStatus(attempt.exception));
                                         return done_.at(attempt.pair).status();
                                       }
                                       if (attempt.outcome.ok()) {
                                         done_.emplace(attempt.pair, std::move(attempt.outcome));
                                       } else {
                                         Fail(attempt.pair, attempt.outcome.status());
                                       }
                                       return Status::Ok();
                                     });
  // After a pair threw, the rest were not begun: they fail as that one did.
  for (size_t i : order) {
    if (!stopped.ok() && done_.count(i) == 0) done_.emplace(i, stopped);
  }
}

void ProcessShare::CompareSplitPairs(const std::vector<PairShare>& shares, const std::vector<uint64_t>& kinds) {
  const int me = cluster_.process();
  std::vector<std::vector<std::string>> outbox(cluster_.processes());
  std::map<size_t, std::pair<PreparedPair, MetricSlice>> held;  // pairs owned: prepared, and our slice
  // Statistics pairs owned: their outputs, fed our slice as it is compared, and the other slices'
  // batches as they came (decoded one at a time).
  std::map<size_t, SlicedOutputs> sliced;
  std::map<size_t, std::vector<Result<std::string>>> tables;
  for (size_t i = 0; i < shares.size(); ++i) {
    const std::vector<int>& who = shares[i].processes;
    const auto at = std::find(who.begin(), who.end(), me);
    if (who.size() == 1 || at == who.end()) continue;
    const size_t slice = at - who.begin();
    const int owner = who[0];
    const auto send = [&](const Status& status, const std::string& payload) {
      outbox[owner].push_back(EncodeEntry({i, status, payload}));
    };
    if (kinds[i] == kStatisticsRows) {
      if (slices_.count(i) == 0) continue;  // compared whole by its owner
      const StatisticsSlice& mine = slices_.at(i);
      if (slice == 0) {
        SlicedOutputs& outputs = sliced[i];
        const Result<SliceRead> read = Guarded<SliceRead>([&] {
          return run_.CompareSlice(plan_.specs[i], mine,
                                   [&](const SliceTable& batch) { return run_.AppendSlice(plan_.specs[i], mine, batch, &outputs); });
        });
        if (read.ok()) CountRead(*read, &outputs); else outputs.whole = true;
        tables[i].resize(who.size(), Status::Internal("", "no slice"));
      } else {
        // Our batches go to the owner encoded, after what else we read.
        std::vector<std::string> batches(1);
        const Result<SliceRead> read = Guarded<SliceRead>([&] {
          return run_.CompareSlice(plan_.specs[i], mine, [&](const SliceTable& batch) {
            batches.push_back(EncodeSliceTable(batch));
            return Status::Ok();
          });
        });
        if (read.ok()) batches[0] = EncodeSliceRead(*read);
        send(read.status(), read.ok() ? PackStrings(batches) : "");
      }
      continue;
    }
    Result<PreparedPair> prepared = Guarded<PreparedPair>([&] { return run_.Prepare(plan_.specs[i]); });
    if (!prepared.ok()) {
      if (slice == 0) Fail(i, prepared.status()); else send(prepared.status(), "");
      continue;
    }
    if (prepared->skipped) {
      if (slice == 0) done_.emplace(i, std::move(prepared->outcome));
      continue;
    }
    const std::pair<size_t, size_t> rows = SliceRows(prepared->table.rows.size(), slice, who.size());
    const size_t begin = rows.first, end = rows.second;
    Result<MetricSlice> computed = Guarded<MetricSlice>([&] { return run_.ComputeSlice(&*prepared, begin, end); });
    if (!computed.ok()) {
      if (slice == 0) Fail(i, computed.status()); else send(computed.status(), "");
    } else if (slice == 0) {
      held.emplace(i, std::make_pair(std::move(*prepared), std::move(*computed)));
    } else {
      for (size_t r = begin; r < end; ++r) computed->metrics.push_back(std::move(prepared->table.rows[r].metrics));
      send(Status::Ok(), EncodeSlice(*computed));
    }
  }
  std::vector<std::string> to(cluster_.processes());
  for (size_t p = 0; p < to.size(); ++p) to[p] = PackStrings(outbox[p]);
  std::map<size_t, std::vector<MetricSlice>> slices;
  std::map<size_t, Status> failed;  // a helper's failure fails the pair
  const std::vector<std::string> received = cluster_.Exchange(to);
  for (size_t from = 0; from < received.size(); ++from) {
    for (const std::string& bytes : UnpackStrings(received[from])) {
      PairEntry entry = DecodeEntry(bytes);
      if (const auto owned = tables.find(entry.pair); owned != tables.end()) {  // a statistics slice
        const std::vector<int>& who = shares[entry.pair].processes;
        Result<std::string>& table = owned->second.at(std::find(who.begin(), who.end(), int(from)) - who.begin());
        table = entry.status.ok() ? Result<std::string>(std::move(entry.payload)) : std::move(entry.status);
      } else if (!entry.status.ok()) {
        failed.emplace(entry.pair, std::move(entry.status));
      } else {
        slices[entry.pair].push_back(DecodeSlice(entry.payload));
      }
    }
  }
  for (auto& owned : tables) {  // (clang 14 captures no structured bindings)
    const size_t i = owned.first;
    std::vector<Result<std::string>>& others = owned.second;
    SlicedOutputs& outputs = sliced.at(i);
    Result<PairOutcome> outcome = Guarded<PairOutcome>([&]() -> Result<PairOutcome> {
      for (size_t s = 1; s < others.size() && !outputs.whole; ++s) {
        if (!others[s].ok()) {
          outputs.whole = true;
          break;
        }
        std::vector<std::string> batches = UnpackStrings(*std::exchange(others[s], std::string()));
        CountRead(DecodeSliceRead(batches.at(0)), &outputs);
        for (size_t b = 1; b < batches.size(); ++b) {
          const SliceTable batch = DecodeSliceTable(std::exchange(batches[b], std::string()));
          MSP_RETURN_IF_ERROR(run_.AppendSlice(plan_.specs[i], slices_.at(i), batch, &outputs));
        }
      }
      return run_.ConcludeSlices(plan_.specs[i], slices_.at(i), std::move(outputs), started_.at(i));
    });
    if (outcome.ok()) done_.emplace(i, std::move(outcome)); else Fail(i, outcome.status());
  }
  for (auto& entry : held) {
    const size_t i = entry.first;
    std::pair<PreparedPair, MetricSlice>& own = entry.second;
    if (failed.count(i) != 0) {
      Fail(i, failed.at(i));
      continue;
    }
    std::vector<MetricSlice>& all = slices[i];
    all.push_back(std::move(own.second));
    std::sort(all.begin(), all.end(), [](const MetricSlice& a, const MetricSlice& b) { return a.begin < b.begin; });
    Result<PairOutcome> outcome =
        Guarded<PairOutcome>([&] { return run_.Conclude(plan_.specs[i], std::move(own.first), all); });
    if (outcome.ok()) done_.emplace(i, std::move(outcome)); else Fail(i, outcome.status());
  }
}

Result<std::vector<XlsxMark>> ProcessShare::GatherOutcomes() {
  std::vector<std::string> entries;
  for (auto& [i, outcome] : done_) {
    if (!outcome.ok()) {
      entries.push_back(EncodeEntry({i, outcome.status(), ""}));
      continue;
    }
    if (outcome->pending_xlsx) {  // its rows stay here, in the xlsx's spool
      run_.KeepXlsx(i, std::move(*outcome->pending_xlsx));
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
      all.at(entry.pair) =
          entry.status.ok() ? Result<PairOutcome>(DecodeOutcome(entry.payload)) : std::move(entry.status);
    }
  }
  // The first failure in pair order is the run's, as in one process.
  for (size_t i = 0; i < all.size(); ++i) {
    if (!all[i]) return Status::Internal("", fmt::format("no process compared pair {}", i));  // a bug
    MSP_RETURN_IF_ERROR(all[i]->status());
  }
  for (size_t i = 0; i < all.size(); ++i) run_.Record(i, std::move(**all[i]));
  if (!options_.diff_analyze) return std::vector<XlsxMark>();
  return run_.AnalyzeFirstDiff();
}

Status ProcessShare::CommitXlsx(const std::vector<XlsxMark>& marks) {
  Result<std::vector<std::pair<size_t, std::vector<std::string>>>> written = run_.CommitXlsx(marks);
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
      run_.AddOutputs(entry.pair, UnpackStrings(entry.payload));
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
  return std::move(run_).Finish();
}

}  // namespace

Result<CompareReport> RunDistributedCompare(const CompareOptions& options, const CompareProgress& progress,
                                            const Distribution& distribution) {
  Cluster& cluster = *distribution.cluster;
  Result<RunPlan> plan = Guarded<RunPlan>([&] { return PlanRun(options); });
  MSP_RETURN_IF_ERROR(AgreeOnFailure(cluster, plan.status()));
  SummedProgress summed(progress);
  const CompareProgress summed_progress = summed.callback();  // the run keeps a reference
  ProcessShare share(options, distribution, *plan, summed_progress);
  return share.Run();
}

}  // namespace msprobe::compare::internal
