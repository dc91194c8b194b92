#include "consistency/step_reading_internal.h"

#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "consistency/rank_share_messages_internal.h"
#include "msprobe/dump/util/coding.h"

namespace msprobe::compare::internal {
namespace {

std::string DumpJson(const TrendRankDir& rank) { return (std::filesystem::path(rank.dir) / "dump.json").string(); }

// Process 0: the shares of every process taken in rank order, a rank decoded at a time, up to the
// first failure in that order.
Status TakeInRankOrder(const std::vector<std::string>& gathered, size_t ranks, const ConsumeRank& consume) {
  std::vector<RankShareReader> shares(gathered.begin(), gathered.end());
  for (size_t i = 0; i < ranks; ++i) {
    RankShareReader& share = shares[i % shares.size()];
    std::optional<RankValues> values = share.Next();
    if (!values) {
      if (share.failure().ok()) throw std::logic_error("a share of a step's ranks ended with none of its ranks failed");
      return share.failure();
    }
    consume(std::move(*values));
  }
  return Status::Ok();
}

}  // namespace

Status ReadStepInOrder(const ConsistencyStep& step, const RankReadOptions& options, const ConsumeRank& consume) {
  size_t next = 0;
  Status failed;
  const size_t tokens = 2 * static_cast<size_t>(std::max(1, tbb::this_task_arena::max_concurrency()));
  using Read = std::shared_ptr<Result<RankValues>>;
  tbb::parallel_pipeline(
      tokens,
      tbb::make_filter<void, size_t>(tbb::filter_mode::serial_in_order,
                                     [&](tbb::flow_control& fc) -> size_t {
                                       if (next == step.ranks.size()) fc.stop();
                                       return next < step.ranks.size() ? next++ : 0;
                                     }) &
          tbb::make_filter<size_t, Read>(tbb::filter_mode::parallel,
                                         [&](size_t i) {
                                           const TrendRankDir& rank = step.ranks[i];
                                           return std::make_shared<Result<RankValues>>(
                                               ReadRankValues(DumpJson(rank), step.step, rank.rank, options));
                                         }) &
          tbb::make_filter<Read, void>(tbb::filter_mode::serial_in_order, [&](Read read) {
            if (!failed.ok()) return;
            if (!read->ok()) {
              failed = read->status();
              return;
            }
            consume(std::move(**read));
          }));
  return failed;
}

Status ReadStepSpread(Cluster& cluster, const ConsistencyStep& step, const RankReadOptions& options,
                      const ConsumeRank& consume) {
  const auto processes = static_cast<size_t>(cluster.processes());
  ConsistencyStep mine{step.step, {}};
  for (size_t i = static_cast<size_t>(cluster.process()); i < step.ranks.size(); i += processes) {
    mine.ranks.push_back(step.ranks[i]);
  }
  // Each rank is encoded as it is read: a process holds its share of the step as bytes.
  RankShareWriter share;
  const Status failure = ReadStepInOrder(mine, options, [&](RankValues&& values) { share.Add(values); });
  const std::vector<std::string> gathered = cluster.Gather(std::move(share).Finish(failure));
  const Status taken = cluster.root() ? TakeInRankOrder(gathered, step.ranks.size(), consume) : Status::Ok();
  return DecodeStatus(cluster.Broadcast(EncodeStatus(taken)));
}

}  // namespace msprobe::compare::internal
