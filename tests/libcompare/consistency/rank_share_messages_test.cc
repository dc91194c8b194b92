// A process's share of a step's ranks (consistency/rank_share_messages, docs/distributed.md §9) comes
// back as it went on the one codec: every field of every argument, statistics bit for bit (NaN
// payloads, -0, ±inf), empty strings and groups, the failure that stopped the share; a message cut
// short anywhere, or with a byte more, is rejected.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "consistency/rank_share_messages_internal.h"

namespace msprobe::compare::internal {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
const std::string kNul("a\0b", 3);

RankArg Arg(std::string api, std::string name, ArgRole role, ArgValue value) {
  RankArg arg;
  arg.api = std::move(api);
  arg.name = std::move(name);
  arg.role = role;
  arg.match = arg.name;
  arg.value = std::move(value);
  return arg;
}

RankShare SampleShare() {
  RankValues r;
  r.step = -2;
  r.rank = 1000;
  r.dump_json = "/dump/step3/rank1000/dump.json";
  r.task = "statistics";
  ArgValue odd{.dtype = "torch.bfloat16", .shape = "[8, 6]",
               .stats = {-0.0, -kInf, std::bit_cast<double>(uint64_t{0xfff800000000beef}), kInf},
               .present = 0x0b, .md5 = "0badf00d"};
  RankArg result = Arg("Distributed.all_reduce.3.forward", "Distributed.all_reduce.3.forward.output.0",
                       ArgRole::kCollectiveResult, odd);
  result.match = "all_reduce@0,1#3.0";
  result.grouped = true;
  result.group = {0, 1, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
  r.args.push_back(result);
  r.args.push_back(Arg("", "", ArgRole::kPlain, ArgValue()));  // every string empty, no statistic
  RankArg grad = Arg("Module.fc1.Linear.parameters_grad", kNul, ArgRole::kParameterGrad,
                     {.dtype = "torch.float32", .shape = "[]", .stats = {0.1, 5e-324, 1e308, 0.0}, .present = 0x0f, .md5 = ""});
  grad.grouped = true;  // an empty group: the world
  r.args.push_back(grad);
  r.args.push_back(Arg("Module.fc1.Linear.forward.0", "Module.fc1.Linear.forward.0.parameters.weight",
                       ArgRole::kParameter, ArgValue()));
  RankShare share;
  share.ranks = {r, RankValues()};
  share.failure = Status::InvalidInput("/dump/step3/rank1003/dump.json", "no \"data\" object");
  return share;
}

void ExpectSameValue(const ArgValue& got, const ArgValue& want) {
  EXPECT_EQ(got.dtype, want.dtype);
  EXPECT_EQ(got.shape, want.shape);
  EXPECT_EQ(got.present, want.present);
  EXPECT_EQ(got.md5, want.md5);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(std::bit_cast<uint64_t>(got.stats[k]), std::bit_cast<uint64_t>(want.stats[k])) << k;
}

TEST(RankShareMessages, EveryFieldComesBackAsItWent) {
  const RankShare want = SampleShare();
  const RankShare got = DecodeRankShare(EncodeRankShare(want));
  ASSERT_EQ(got.ranks.size(), want.ranks.size());
  for (size_t i = 0; i < want.ranks.size(); ++i) {
    const RankValues &g = got.ranks[i], &w = want.ranks[i];
    EXPECT_EQ(g.step, w.step);
    EXPECT_EQ(g.rank, w.rank);
    EXPECT_EQ(g.dump_json, w.dump_json);
    EXPECT_EQ(g.task, w.task);
    ASSERT_EQ(g.args.size(), w.args.size());
    for (size_t a = 0; a < w.args.size(); ++a) {
      SCOPED_TRACE(a);
      EXPECT_EQ(g.args[a].api, w.args[a].api);
      EXPECT_EQ(g.args[a].name, w.args[a].name);
      EXPECT_EQ(g.args[a].role, w.args[a].role);
      EXPECT_EQ(g.args[a].match, w.args[a].match);
      EXPECT_EQ(g.args[a].grouped, w.args[a].grouped);
      EXPECT_EQ(g.args[a].group, w.args[a].group);
      ExpectSameValue(g.args[a].value, w.args[a].value);
    }
  }
  EXPECT_EQ(got.failure.code(), Code::kInvalidInput);
  EXPECT_EQ(got.failure.source(), "/dump/step3/rank1003/dump.json");
  EXPECT_EQ(got.failure.message(), "no \"data\" object");
  // A share read whole: no rank, no failure.
  const RankShare empty = DecodeRankShare(EncodeRankShare(RankShare()));
  EXPECT_TRUE(empty.ranks.empty());
  EXPECT_TRUE(empty.failure.ok());
}

TEST(RankShareMessages, AMessageCutShortOrLongerIsRejected) {
  const std::string bytes = EncodeRankShare(SampleShare());
  EXPECT_EQ(EncodeRankShare(DecodeRankShare(bytes)), bytes);
  for (size_t n = 0; n < bytes.size(); ++n) {
    const std::string cut = bytes.substr(0, n);  // its own allocation: ASan sees a read past it
    EXPECT_THROW(DecodeRankShare(cut), std::logic_error) << n << " of " << bytes.size();
  }
  EXPECT_THROW(DecodeRankShare(bytes + '\0'), std::logic_error);
}

// Four statistics, four bits: a fifth is no value a process writes.
TEST(RankShareMessages, PresentBitsPastTheFourStatisticsAreRejected) {
  RankShare share;
  share.ranks.emplace_back().args.push_back(Arg("a", "a.output.0", ArgRole::kPlain,
                                                {.dtype = "", .shape = "", .stats = {}, .present = 0x10, .md5 = ""}));
  EXPECT_THROW(DecodeRankShare(EncodeRankShare(share)), std::logic_error);
}

}  // namespace
}  // namespace msprobe::compare::internal
