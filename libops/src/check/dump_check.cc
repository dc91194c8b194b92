#include "msprobe/ops/check/dump_check.h"

#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <optional>
#include <string>
#include <utility>

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

  explicit CallCollector(std::string dump_json) : dump_json_(std::move(dump_json)) {}

  Status Entry(std::string_view key, const JsonValue& value) override {
    if (!IsForwardCall(key)) {
      ++skipped;
      return Status::Ok();
    }
    // A malformed dump.json, as compare finds it (docs/compare.md §2.1), not an unsupported call.
    MSP_RETURN_IF_ERROR(CheckEntryShape(key, value, dump_json_));
    calls.push_back({std::string(key), ParseCallArgs(value, std::string(key))});
    return Status::Ok();
  }

  std::vector<Call> calls;
  uint64_t skipped = 0;

 private:
  std::string dump_json_;
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

// What a call's tensors take in float64: the largest, and all of them (its inputs loaded, its
// reference's outputs, and the dumped output each is measured against, weighted 2). In double: a
// recorded shape is unchecked until its file is read, and its product may overflow.
struct CallBytes {
  double largest = 0, total = 0;
};

void AddTensors(const ArgValue& value, double weight, CallBytes* bytes) {
  if (value.kind == ArgValue::Kind::kTensor) {
    const std::vector<int64_t>& shape = value.tensor.shape;
    double size = sizeof(double);
    if (std::find(shape.begin(), shape.end(), 0) != shape.end()) return;  // empty (and inf * 0 is NaN)
    for (int64_t d : shape) size *= static_cast<double>(d);
    bytes->largest = std::max(bytes->largest, size);
    bytes->total += weight * size;
    return;
  }
  for (const ArgValue& item : value.items) AddTensors(item, weight, bytes);
}

CallBytes BytesOf(const CallArgs& args) {
  CallBytes bytes;
  for (const ArgValue& arg : args.args) AddTensors(arg, 1, &bytes);
  for (const auto& [name, arg] : args.kwargs) AddTensors(arg, 1, &bytes);
  for (const ArgValue& out : args.outputs) AddTensors(out, 2, &bytes);
  return bytes;
}

// The allocator's limit while the calls run (Fp64BlockCache), or none when no tensor of a call that
// is recomputed is larger than the blocks the allocator keeps anyway: a limit there would only cost,
// since it counts all the allocator holds. The limit: twice the largest call's tensors (a reference's
// temporaries, such as linear's bias broadcast to the output's shape, can be as large again) on every
// thread. Below what the calls hold, the allocator would return its blocks at every new mapping, which
// is slower than keeping none (recompute_bench's linear, with a limit of once its tensors: 1.21 s
// became 1.50 s).
std::optional<uint64_t> BlockCacheLimit(const std::vector<CallCollector::Call>& calls) {
  CallBytes peak;  // the largest tensor of any call, the largest call's total
  for (const CallCollector::Call& call : calls) {
    if (!call.args.ok() || !QuerySupport(call.key).supported) continue;  // its tensors are never loaded
    const CallBytes bytes = BytesOf(*call.args);
    peak.largest = std::max(peak.largest, bytes.largest);
    peak.total = std::max(peak.total, bytes.total);
  }
  if (peak.largest <= static_cast<double>(kFp64BytesKeptAnyway)) return std::nullopt;
  const auto threads = tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism);
  const double limit = 2 * peak.total * static_cast<double>(threads);
  return limit < 0x1p63 ? static_cast<uint64_t>(limit) : UINT64_MAX;
}

}  // namespace

Result<DumpCallCount> CountDumpCalls(const std::string& dump_json) {
  CallCounter counter;
  MSP_ASSIGN_OR_RETURN(counter.count.header, StreamDumpJson(dump_json, counter));
  return std::move(counter.count);
}

Result<DumpCheck> CheckDumpCalls(const std::string& dump_json, const Progress& progress) {
  CallCollector collector(dump_json);
  MSP_RETURN_IF_ERROR(StreamDumpJson(dump_json, collector).status());
  const InputLoader load = DirectoryLoader(TensorDataDir(dump_json));
  DumpCheck out;
  out.skipped = collector.skipped;
  out.calls.resize(collector.calls.size());
  std::atomic<uint64_t> done{0};
  const uint64_t total = collector.calls.size();
  std::optional<Fp64BlockCache> cache;
  if (const std::optional<uint64_t> limit = BlockCacheLimit(collector.calls)) cache.emplace(*limit);
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
