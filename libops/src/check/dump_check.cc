#include "msprobe/ops/check/dump_check.h"

#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <optional>

#include "msprobe/dump/framework/dump_json.h"
#include "msprobe/dump/framework/dump_layout.h"
#include "msprobe/ops/reference/reference.h"
#include "msprobe/ops/tensor/fp64_block_cache.h"

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

// In double: a recorded shape is unchecked until its file is read, and its product may overflow.
double TensorValues(const ArgValue& value) {
  if (value.kind == ArgValue::Kind::kTensor) {
    double n = 1;
    for (int64_t d : value.tensor.shape) n *= static_cast<double>(d);
    return n;
  }
  double n = 0;
  for (const ArgValue& item : value.items) n += TensorValues(item);
  return n;
}

// The float64 bytes of a call's tensors: its inputs loaded, its reference's outputs, and the dumped
// output each is measured against.
double CallBytes(const CallArgs& args) {
  double values = 0;
  for (const ArgValue& arg : args.args) values += TensorValues(arg);
  for (const auto& [name, arg] : args.kwargs) values += TensorValues(arg);
  for (const ArgValue& out : args.outputs) values += 2 * TensorValues(out);
  return values * sizeof(double);
}

// The float64 memory the calls may hold at once: twice the largest call's tensors (a reference's
// temporaries, such as linear's bias broadcast to the output's shape, can be as large again) on every
// thread. Below what the calls hold, the allocator would return its blocks at every new mapping, which
// is slower than keeping none (recompute_bench's linear, with a limit of once its tensors: 1.21 s
// became 1.50 s).
uint64_t PeakBytes(const std::vector<CallCollector::Call>& calls) {
  double largest = 0;
  for (const CallCollector::Call& call : calls) {
    if (call.args.ok()) largest = std::max(largest, CallBytes(*call.args));
  }
  const double bytes =
      2 * largest * static_cast<double>(tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism));
  return bytes < 0x1p63 ? static_cast<uint64_t>(bytes) : UINT64_MAX;
}

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
  const Fp64BlockCache cache(PeakBytes(collector.calls));
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
