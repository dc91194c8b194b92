// What one rank's dump.json gives the consistency checks (docs/consistency.md §2-§3), read streamed
// entry by entry: every tensor argument's value (recorded statistics and md5, or recomputed from its
// file), its role, and the key the ranks are matched by; for the results of collectives, their group
// and place in that group's calls; for parameters, the data-parallel group inferred from the
// collective that reduced their gradient.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "msprobe/dump/util/status.h"

namespace msprobe::compare::internal {

// A tensor argument's value as the checks compare it.
struct ArgValue {
  std::string dtype, shape;      // as recorded: "torch.float32", "[8, 6]"
  std::array<double, 4> stats{};  // Max, Min, Mean, Norm
  uint8_t present = 0;           // bit k: stats[k] holds a number (null, absent or a text: not)
  std::string md5;               // the recorded md5 (CRC-32 or xor), or the recomputed CRC-32; "" when none

  bool Has(int k) const { return (present >> k) & 1; }
  // Exactly the same: dtype, shape, md5 and every statistic (NaN equals NaN).
  bool SameAs(const ArgValue& other) const;
  // "Max=…, Min=…, Mean=…, Norm=…" (Python's repr of each), then ", md5=…" when there is one.
  std::string Text() const;
};
inline constexpr int kMax = 0, kNorm = 3;
inline constexpr std::array<const char*, 4> kStatNames = {"Max", "Min", "Mean", "Norm"};

enum class ArgRole : uint8_t {
  kPlain,              // scored by the z-score only
  kCollectiveResult,   // a result every member of the collective's group holds alike
  kParameter,          // a module's parameter at a forward call
  kParameterGrad,      // a parameters_grad entry's gradient (local: msprobe records it before any reduction)
};

struct RankArg {
  std::string api;    // the entry: "Distributed.all_reduce.3.forward"
  std::string name;   // "Distributed.all_reduce.3.forward.output.0"
  ArgRole role = ArgRole::kPlain;
  // What the ranks are matched by: `name`, or for a collective's result its API, group and place
  // among this rank's calls of that API on that group ("all_reduce@0,1#3.0": the fourth, output 0).
  std::string match;
  // Collective results: the recorded group (grouped, `group` its ranks) or none (the world: every rank
  // of the step). Parameters and their gradients: the data-parallel group inferred for them (grouped)
  // or not; an empty group then means the world.
  bool grouped = false;
  std::vector<int64_t> group;
  ArgValue value;
};

struct RankValues {
  int64_t step = 0, rank = 0;
  std::string dump_json;
  std::string task;            // the dump's task ("statistics", "tensor")
  std::vector<RankArg> args;   // in file order
};

struct RankReadOptions {
  bool recompute_stats = false;  // statistics and CRC-32 from the tensor files (data_name)
};

// Errors: the dump cannot be read or parsed, has no "data" object or a malformed tensor object; with
// recompute_stats a tensor file missing or unreadable. Each names its file.
Result<RankValues> ReadRankValues(const std::string& dump_json, int64_t step, int64_t rank,
                                  const RankReadOptions& options);

}  // namespace msprobe::compare::internal
