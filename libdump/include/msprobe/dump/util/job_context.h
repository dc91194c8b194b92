// What every library job is given besides its options (`Result<XReport> RunX(const XOptions&, const
// JobContext&)`): where it reports progress and warnings, and the processes it may spread over.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>

namespace msprobe {

namespace compare {
class Cluster;
}

// (what is being worked on, e.g. a dump.json; units done; units in all). May be called from worker threads.
using Progress = std::function<void(std::string_view what, uint64_t done, uint64_t total)>;
// A problem the job went past: where (a file, a directory) and what.
using Warn = std::function<void(std::string_view source, std::string_view message)>;

struct JobContext {
  Progress progress;
  Warn warn;
  compare::Cluster* cluster = nullptr;  // null: the job runs in this process alone
};

}  // namespace msprobe
