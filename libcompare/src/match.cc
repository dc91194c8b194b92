#include "msprobe/compare/match.h"

#include <tbb/parallel_invoke.h>

#include <array>
#include <unordered_map>

#include "msprobe/compare/api_mapping.h"
#include "msprobe/compare/fuzzy_match.h"

namespace msprobe::compare {
namespace {

bool IsDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// Cross-framework coarse dtype classes (compare.md §3.2.4, msprobe `cross_dtype_mapping`);
// strings not listed are compared as they are.
std::string_view CoarseDtype(std::string_view dtype) {
  struct Class {
    std::string_view dtype, coarse;
  };
  static constexpr Class kClasses[] = {
      {"Int8", "int"},        {"torch.int8", "int"},        {"UInt8", "int"},
      {"torch.uint8", "int"}, {"Int16", "int"},             {"torch.int16", "int"},
      {"UInt16", "int"},      {"torch.uint16", "int"},      {"Int32", "int"},
      {"torch.int32", "int"}, {"UInt32", "int"},            {"torch.uint32", "int"},
      {"Int64", "int"},       {"torch.int64", "int"},       {"UInt64", "int"},
      {"torch.uint64", "int"},
      {"Float16", "float"},   {"torch.float16", "float"},   {"Float32", "float"},
      {"torch.float32", "float"}, {"Float64", "float"},     {"torch.float64", "float"},
      {"BFloat16", "float"},  {"torch.bfloat16", "float"},
      {"Bool", "bool"},       {"torch.bool", "bool"},
      {"Complex64", "complex"}, {"torch.complex64", "complex"},
      {"Complex128", "complex"}, {"torch.complex128", "complex"},
  };
  for (const Class& c : kClasses) {
    if (c.dtype == dtype) return c.coarse;
  }
  return dtype;
}

bool InGroup(std::string_view dtype, const std::array<std::string_view, 3>& group) {
  for (std::string_view member : group) {
    if (member == dtype) return true;
  }
  return false;
}

// Outer join on the key restricted to the NPU side, in NPU order (§3.2 steps 1-3): G3's outer
// merge followed by dropping bench-only rows and a stable sort on the NPU index, which is also what
// the -dm left join gives. Duplicate keys give every bench row, in bench order.
std::vector<RowPair> JoinOnKeys(const std::vector<std::string>& npu_keys,
                                const std::vector<std::string>& bench_keys) {
  // Each key's bench rows as a chain through `next`, in bench order: no list allocated per key.
  constexpr size_t kEnd = static_cast<size_t>(-1);
  struct Chain {
    size_t first, last;
  };
  std::unordered_map<std::string_view, Chain> chains;
  chains.reserve(bench_keys.size());
  std::vector<size_t> next(bench_keys.size(), kEnd);
  for (size_t b = 0; b < bench_keys.size(); ++b) {
    const auto [it, added] = chains.try_emplace(bench_keys[b], Chain{b, b});
    if (!added) {
      next[it->second.last] = b;
      it->second.last = b;
    }
  }
  std::vector<RowPair> out;
  out.reserve(npu_keys.size());
  for (size_t n = 0; n < npu_keys.size(); ++n) {
    auto it = chains.find(npu_keys[n]);
    if (it == chains.end()) {
      out.push_back({n, std::nullopt});
      continue;
    }
    for (size_t b = it->second.first; b != kEnd; b = next[b]) out.push_back({n, b});
  }
  return out;
}

bool Renumbers(const MatchOptions& options) { return !options.fuzzy && !options.is_debug; }

}  // namespace

std::string BackwardRenumberedName(const OpRow& row) {
  if (row.direction != "backward") return row.name;
  const size_t dot = row.call_direction.rfind('.');
  if (dot == std::string::npos) return row.name;
  std::string head = row.call_direction.substr(0, dot);
  std::string tail = row.call_direction.substr(dot + 1);
  const bool head_digits = IsDigits(head), tail_digits = IsDigits(tail);
  if (!head_digits && !tail_digits) return row.name;
  const std::string order = std::to_string(row.backward_call_order);
  if (head_digits) head = order;
  if (tail_digits) tail = order;
  return row.op_no_number + "." + head + "." + tail + row.suffix;
}

std::vector<std::string> BenchCompareKeys(const std::vector<OpRow>& bench, const MatchOptions& options) {
  std::vector<std::string> keys;
  keys.reserve(bench.size());
  for (const OpRow& row : bench) keys.push_back(Renumbers(options) ? BackwardRenumberedName(row) : row.name);
  return keys;
}

std::vector<std::string> NpuCompareKeys(const std::vector<OpRow>& npu, const std::vector<OpRow>& bench,
                                        const MatchOptions& options) {
  std::vector<std::string> keys;
  keys.reserve(npu.size());
  // With a mapping, G3 derives the NPU key from the row name as dumped, not renumbered (§3.1);
  // the priority is -am, then -cm, then -dm.
  if (options.api_mapping) {
    for (const OpRow& row : npu) keys.push_back(BuiltinApiMappedKey(row.name));
    ApplyUserApiMapping(*options.api_mapping, npu, bench, &keys);
  } else if (options.cell_mapping) {
    for (const OpRow& row : npu) keys.push_back(CellMappedKey(row.name, *options.cell_mapping));
  } else if (options.data_mapping) {
    for (const OpRow& row : npu) keys.push_back(DataMappedKey(row.name, *options.data_mapping));
  } else {
    for (const OpRow& row : npu) keys.push_back(Renumbers(options) ? BackwardRenumberedName(row) : row.name);
  }
  return keys;
}

bool DtypesCompatible(std::string_view npu_dtype, std::string_view bench_dtype, bool cross_framework) {
  static constexpr std::array<std::string_view, 3> kMindSporeFloats = {"Float16", "Float32", "BFloat16"};
  static constexpr std::array<std::string_view, 3> kTorchFloats = {"torch.float16", "torch.float32",
                                                                   "torch.bfloat16"};
  if (cross_framework) {
    npu_dtype = CoarseDtype(npu_dtype);
    bench_dtype = CoarseDtype(bench_dtype);
  }
  if (npu_dtype == bench_dtype) return true;
  return (InGroup(npu_dtype, kMindSporeFloats) && InGroup(bench_dtype, kMindSporeFloats)) ||
         (InGroup(npu_dtype, kTorchFloats) && InGroup(bench_dtype, kTorchFloats));
}

std::vector<RowPair> MatchRows(const std::vector<OpRow>& npu, const std::vector<OpRow>& bench,
                               const MatchOptions& options) {
  std::vector<std::string> npu_keys, bench_keys;
  tbb::parallel_invoke([&] { npu_keys = NpuCompareKeys(npu, bench, options); },
                       [&] { bench_keys = BenchCompareKeys(bench, options); });
  // G3 checks -dm before -fm, so -dm with -fm is the -dm left join.
  std::vector<RowPair> pairs = (options.fuzzy && !options.data_mapping) ? FuzzyMatchKeys(npu_keys, bench_keys)
                                                                        : JoinOnKeys(npu_keys, bench_keys);
  if (options.data_mapping) return pairs;  // -dm skips the dtype check
  for (RowPair& pair : pairs) {
    if (pair.bench && !DtypesCompatible(npu[pair.npu].dtype, bench[*pair.bench].dtype, options.cross_framework)) {
      pair.bench.reset();
    }
  }
  return pairs;
}

}  // namespace msprobe::compare
