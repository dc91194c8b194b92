#include "msprobe/ops/check/dump_check.h"

#include <tbb/parallel_for.h>

#include <atomic>
#include <optional>

#include "msprobe/dump/framework/dump_json.h"
#include "msprobe/dump/framework/dump_layout.h"
#include "msprobe/ops/reference/reference.h"

namespace msprobe::ops {
namespace {

// A forward API call: "{Prefix}.{api}.{n}.forward", not a module's.
bool IsForwardCall(std::string_view key) {
  return key.ends_with(".forward") && !key.starts_with("Module.") && !key.starts_with("Cell.");
}

// Keeps each forward call's typed arguments (small: shapes and file names, never tensor data).
class CallCollector : public DumpJsonVisitor {
 public:
  struct Call {
    std::string key;
    Result<CallArgs> args;
  };

  Status Entry(std::string_view key, const JsonValue& value) override {
    if (!IsForwardCall(key)) {
      ++skipped;
      return Status::Ok();
    }
    calls.push_back({std::string(key), ParseCallArgs(value, std::string(key))});
    return Status::Ok();
  }

  std::vector<Call> calls;
  uint64_t skipped = 0;
};

// Counts the forward API calls by name alone.
class CallCounter : public DumpJsonVisitor {
 public:
  Status Entry(std::string_view key, const JsonValue&) override {
    if (!IsForwardCall(key)) return Status::Ok();
    if (count.calls++ == 0) count.first_call = std::string(key);
    count.with_reference += QuerySupport(key).supported;
    return Status::Ok();
  }

  DumpCallCount count;
};

}  // namespace

Result<DumpCallCount> CountDumpCalls(const std::string& dump_json) {
  CallCounter counter;
  MSP_ASSIGN_OR_RETURN(counter.count.header, StreamDumpJson(dump_json, counter));
  return std::move(counter.count);
}

Result<DumpCheck> CheckDumpCalls(const std::string& dump_json, const Progress& progress) {
  CallCollector collector;
  MSP_RETURN_IF_ERROR(StreamDumpJson(dump_json, collector).status());
  const InputLoader load = DirectoryLoader(TensorDataDir(dump_json));
  DumpCheck out;
  out.skipped = collector.skipped;
  out.calls.resize(collector.calls.size());
  std::atomic<uint64_t> done{0};
  const uint64_t total = collector.calls.size();
  tbb::parallel_for(size_t{0}, collector.calls.size(), [&](size_t i) {
    const CallCollector::Call& call = collector.calls[i];
    out.calls[i].key = call.key;
    out.calls[i].check = call.args.ok() ? CheckSelfError(call.key, *call.args, load)
                                        : UnsupportedCheck(call.args.status().message());
    if (progress) progress(dump_json, ++done, total);
  });
  return out;
}

}  // namespace msprobe::ops
