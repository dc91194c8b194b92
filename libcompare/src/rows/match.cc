#include "msprobe/compare/rows/match.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>

#include <array>
#include <deque>
#include <functional>

#include "msprobe/compare/rows/api_mapping.h"
#include "msprobe/compare/rows/flatten.h"
#include "msprobe/compare/rows/fuzzy_match.h"

namespace msprobe::compare {
namespace {

bool IsDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// Cross-framework coarse dtype classes (docs/compare.md §3.2.4, msprobe `cross_dtype_mapping`);
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

constexpr size_t kNoRow = static_cast<size_t>(-1);

// One shard of the golden keys, by open addressing: a slot per distinct key, holding its hash and
// the chain of its golden rows (first, last; linked through `next`, in golden order). Flat, so a
// million keys cost no allocation each.
class KeyShard {
 public:
  KeyShard() = default;
  KeyShard(const std::vector<size_t>& rows, const std::vector<std::string_view>& keys,
           const std::vector<size_t>& hashes, std::vector<size_t>* next) {
    size_t capacity = 16;
    while (capacity < 2 * rows.size()) capacity *= 2;
    slots_.assign(capacity, Slot{});
    mask_ = capacity - 1;
    for (const size_t b : rows) {  // a golden row's chain lives in one shard: no race on next
      Slot& slot = slots_[Find(keys[b], hashes[b], keys)];
      if (slot.first == kNoRow) {
        slot = {hashes[b], b, b};
      } else {
        (*next)[slot.last] = b;
        slot.last = b;
      }
    }
  }

  // The first golden row of `key`, or kNoRow.
  size_t First(std::string_view key, size_t hash, const std::vector<std::string_view>& keys) const {
    return slots_.empty() ? kNoRow : slots_[Find(key, hash, keys)].first;
  }

 private:
  struct Slot {
    size_t hash = 0, first = kNoRow, last = kNoRow;
  };
  // The key's slot, or the empty one where it would go. The shard was picked by the hash's low
  // bits, so the slot comes from the bits above them.
  size_t Find(std::string_view key, size_t hash, const std::vector<std::string_view>& keys) const {
    for (size_t i = (hash >> 6) & mask_;; i = (i + 1) & mask_) {
      const Slot& slot = slots_[i];
      if (slot.first == kNoRow || (slot.hash == hash && keys[slot.first] == key)) return i;
    }
  }

  std::vector<Slot> slots_;
  size_t mask_ = 0;
};

std::vector<size_t> HashAll(const std::vector<std::string_view>& keys) {
  std::vector<size_t> hashes(keys.size());
  tbb::parallel_for(tbb::blocked_range<size_t>(0, keys.size()), [&](const tbb::blocked_range<size_t>& r) {
    for (size_t i = r.begin(); i != r.end(); ++i) hashes[i] = std::hash<std::string_view>{}(keys[i]);
  });
  return hashes;
}


}  // namespace

// The golden keys go to shards by hash, each shard's table built in golden order on all cores.
class GoldenKeyIndex {
 public:
  explicit GoldenKeyIndex(std::vector<std::string_view> keys) : keys_(std::move(keys)), next_(keys_.size(), kNoRow) {
    const std::vector<size_t> hashes = HashAll(keys_);
    std::array<std::vector<size_t>, kShards> shard_rows;
    for (size_t b = 0; b < keys_.size(); ++b) shard_rows[hashes[b] % kShards].push_back(b);
    tbb::parallel_for(size_t{0}, kShards,
                      [&](size_t s) { shards_[s] = KeyShard(shard_rows[s], keys_, hashes, &next_); });
  }

  // Outer join on the key restricted to the target side, in target order (§3.2 steps 1-3): G3's outer
  // merge followed by dropping golden-only rows and a stable sort on the target index, which is also what
  // the -dm left join gives. Duplicate keys give every golden row, in golden order. The target rows look
  // up, count and fill their pairs on all cores.
  std::vector<RowPair> Join(const std::vector<std::string_view>& target_keys) const {
    const std::vector<size_t> target_hash = HashAll(target_keys);
    // Per target row: its chain's first golden row and the number of pairs it makes (at least one).
    std::vector<size_t> first(target_keys.size(), kNoRow), offset(target_keys.size() + 1, 0);
    tbb::parallel_for(tbb::blocked_range<size_t>(0, target_keys.size()), [&](const tbb::blocked_range<size_t>& r) {
      for (size_t n = r.begin(); n != r.end(); ++n) {
        first[n] = shards_[target_hash[n] % kShards].First(target_keys[n], target_hash[n], keys_);
        size_t count = first[n] == kNoRow ? 1 : 0;
        for (size_t b = first[n]; b != kNoRow; b = next_[b]) ++count;
        offset[n + 1] = count;
      }
    });
    for (size_t n = 0; n < target_keys.size(); ++n) offset[n + 1] += offset[n];
    std::vector<RowPair> out(offset.back());
    tbb::parallel_for(tbb::blocked_range<size_t>(0, target_keys.size()), [&](const tbb::blocked_range<size_t>& r) {
      for (size_t n = r.begin(); n != r.end(); ++n) {
        size_t at = offset[n];
        if (first[n] == kNoRow) {
          out[at] = {n, std::nullopt};
          continue;
        }
        for (size_t b = first[n]; b != kNoRow; b = next_[b]) out[at++] = {n, b};
      }
    });
    return out;
  }

 private:
  static constexpr size_t kShards = 64;  // KeyShard::Find skips the 6 bits that pick the shard
  std::vector<std::string_view> keys_;
  std::vector<size_t> next_;
  std::array<KeyShard, kShards> shards_;
};

namespace {

bool Renumbers(const MatchOptions& options) { return !options.fuzzy && !options.is_debug; }

// The compare keys of rows without a mapping (§3.1): views of the row names, or of `renumbered`
// for the backward rows whose key is renumbered. The rows and `renumbered` must outlive them.
std::vector<std::string_view> PlainKeys(const std::vector<OpRow>& rows, const MatchOptions& options,
                                        std::deque<std::string>* renumbered) {
  std::vector<std::string_view> keys;
  keys.reserve(rows.size());
  for (const OpRow& row : rows) {
    if (!Renumbers(options) || !MayBeBackwardKey(row.api)) {
      keys.push_back(row.name);
      continue;
    }
    std::string key = BackwardRenumberedName(row);
    if (key == row.name) {
      keys.push_back(row.name);
    } else {
      keys.push_back(renumbered->emplace_back(std::move(key)));
    }
  }
  return keys;
}

std::vector<std::string> Strings(const std::vector<std::string_view>& views) {
  return std::vector<std::string>(views.begin(), views.end());
}

}  // namespace

std::string BackwardRenumberedName(const OpRow& row) {
  if (!MayBeBackwardKey(row.api)) return row.name;
  const KeyParts parts = SplitKey(row.api, false);
  if (parts.direction != "backward") return row.name;
  const size_t dot = parts.call_direction.rfind('.');
  if (dot == std::string::npos) return row.name;
  std::string head = parts.call_direction.substr(0, dot);
  std::string tail = parts.call_direction.substr(dot + 1);
  const bool head_digits = IsDigits(head), tail_digits = IsDigits(tail);
  if (!head_digits && !tail_digits) return row.name;
  const std::string order = std::to_string(row.backward_call_order);
  if (head_digits) head = order;
  if (tail_digits) tail = order;
  return parts.op_no_number + "." + head + "." + tail + NameSuffix(row);
}

std::vector<std::string> GoldenCompareKeys(const std::vector<OpRow>& golden, const MatchOptions& options) {
  std::deque<std::string> renumbered;
  return Strings(PlainKeys(golden, options, &renumbered));
}

std::vector<std::string> TargetCompareKeys(const std::vector<OpRow>& target, const std::vector<OpRow>& golden,
                                        const MatchOptions& options) {
  std::vector<std::string> keys;
  // With a mapping, G3 derives the target key from the row name as dumped, not renumbered (§3.1);
  // the priority is -am, then -cm, then -dm.
  if (options.api_mapping) {
    keys.reserve(target.size());
    for (const OpRow& row : target) keys.push_back(BuiltinApiMappedKey(row.name));
    ApplyUserApiMapping(*options.api_mapping, target, golden, &keys);
  } else if (options.cell_mapping) {
    keys.reserve(target.size());
    for (const OpRow& row : target) keys.push_back(CellMappedKey(row.name, *options.cell_mapping));
  } else if (options.data_mapping) {
    keys.reserve(target.size());
    for (const OpRow& row : target) keys.push_back(DataMappedKey(row.name, *options.data_mapping));
  } else {
    std::deque<std::string> renumbered;
    keys = Strings(PlainKeys(target, options, &renumbered));
  }
  return keys;
}

bool DtypesCompatible(std::string_view target_dtype, std::string_view golden_dtype, bool cross_framework) {
  static constexpr std::array<std::string_view, 3> kMindSporeFloats = {"Float16", "Float32", "BFloat16"};
  static constexpr std::array<std::string_view, 3> kTorchFloats = {"torch.float16", "torch.float32",
                                                                   "torch.bfloat16"};
  if (cross_framework) {
    target_dtype = CoarseDtype(target_dtype);
    golden_dtype = CoarseDtype(golden_dtype);
  }
  if (target_dtype == golden_dtype) return true;
  return (InGroup(target_dtype, kMindSporeFloats) && InGroup(golden_dtype, kMindSporeFloats)) ||
         (InGroup(target_dtype, kTorchFloats) && InGroup(golden_dtype, kTorchFloats));
}

namespace {

// §3.2.4: a pair whose dtypes fail DtypesCompatible is unmatched (not under -dm).
void UnmatchIncompatible(const std::vector<OpRow>& target, const std::vector<OpRow>& golden,
                         const MatchOptions& options, std::vector<RowPair>* pairs) {
  if (options.data_mapping) return;  // -dm skips the dtype check
  tbb::parallel_for(tbb::blocked_range<size_t>(0, pairs->size()), [&](const tbb::blocked_range<size_t>& r) {
    for (size_t i = r.begin(); i != r.end(); ++i) {
      RowPair& pair = (*pairs)[i];
      if (pair.golden &&
          !DtypesCompatible(target[pair.target].dtype, golden[*pair.golden].dtype, options.cross_framework)) {
        pair.golden.reset();
      }
    }
  });
}

}  // namespace

GoldenMatcher::GoldenMatcher(const std::vector<OpRow>& golden, const MatchOptions& options)
    : golden_(golden), options_(options), renumbered_(std::make_unique<std::deque<std::string>>()) {
  index_ = std::make_unique<GoldenKeyIndex>(PlainKeys(golden, options, renumbered_.get()));
}

GoldenMatcher::~GoldenMatcher() = default;

std::vector<RowPair> GoldenMatcher::Match(const std::vector<OpRow>& target) const {
  std::deque<std::string> renumbered;
  std::vector<RowPair> pairs = index_->Join(PlainKeys(target, options_, &renumbered));
  UnmatchIncompatible(target, golden_, options_, &pairs);
  return pairs;
}

std::vector<RowPair> MatchRows(const std::vector<OpRow>& target, const std::vector<OpRow>& golden,
                               const MatchOptions& options) {
  const bool mapped = options.api_mapping || options.cell_mapping || options.data_mapping;
  if (!mapped && !options.fuzzy) return GoldenMatcher(golden, options).Match(target);
  // Keys are views: of the row names where the key is the name (most rows), else of these.
  std::deque<std::string> golden_renumbered;
  std::vector<std::string> target_mapped;
  std::vector<std::string_view> target_keys, golden_keys;
  tbb::parallel_invoke(
      [&] {
        target_mapped = TargetCompareKeys(target, golden, options);
        target_keys.assign(target_mapped.begin(), target_mapped.end());
      },
      [&] { golden_keys = PlainKeys(golden, options, &golden_renumbered); });
  // G3 checks -dm before -fm, so -dm with -fm is the -dm left join.
  std::vector<RowPair> pairs = (options.fuzzy && !options.data_mapping)
                                   ? FuzzyMatchKeys(target_keys, golden_keys)
                                   : GoldenKeyIndex(std::move(golden_keys)).Join(target_keys);
  UnmatchIncompatible(target, golden, options, &pairs);
  return pairs;
}

}  // namespace msprobe::compare
