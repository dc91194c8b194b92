// What every job (`Result<XReport> RunX(const XOptions&, const JobContext&)`: compare, kernel compare,
// merge, recompute, verify, statistic, convert) is handed besides its options: where it tells of its
// progress and warnings, and the processes it may share its work with. A program makes one; a test
// or a library caller passes {} for none.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "msprobe/dump/util/status.h"

namespace msprobe {

class Cluster;  // the processes of a distributed run (docs/distributed.md)

// `done` of `total` units of `what`: the file being worked on when the total is counted in one file
// (a pair's target dump.json, a dump.json's calls), else what the job counts ("tensor files",
// "results"). May be called from worker threads at once.
using Progress = std::function<void(std::string_view what, uint64_t done, uint64_t total)>;

// A warning as it happens: the file concerned and the message.
using Warn = std::function<void(const std::string& source, const std::string& message)>;

// Every member has an initializer, so that a designated initializer may leave any out (GCC 12's
// -Wmissing-field-initializers): RunVerify(options, {.progress = bar.Callback()}).
struct JobContext {
  Progress progress = {};  // may be empty
  Warn warn = {};          // may be empty
  // With more than one process, every process runs the job alike (the job's header says who returns
  // what); nullptr or one process: the job runs alone.
  Cluster* cluster = nullptr;
  // A part of the job this process failed at (a pair of a distributed compare), as it happens; the
  // job's own error is still the one its Result carries.
  std::function<void(const Status&)> on_failure = {};
};

}  // namespace msprobe
