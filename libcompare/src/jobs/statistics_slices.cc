#include "jobs/statistics_slices_internal.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <future>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "jobs/pair_rules_internal.h"
#include "msprobe/compare/rows/match.h"
#include "msprobe/dump/io/byte_cursor.h"
#include "msprobe/dump/io/mapped_file.h"

namespace msprobe::compare::internal {
namespace {

// One dump as the owner sees it: its outline, read as one process reads the dump.
struct OutlinedDump {
  DumpJsonOutline outline;
  bool is_debug = false;
  std::vector<CallOrder> orders;
};

// The dump outlined, or nullopt when its header is not one a slice could be read with: a header
// member after "data" that changes how the entries read (a process streaming the pair would compare
// it in memory then), no task, no data (FlattenDump's errors, which the whole compare reports).
std::optional<OutlinedDump> Outline(const std::string& path) {
  Result<DumpJsonOutline> outline = OutlineDumpJson(path);
  if (!outline.ok()) return std::nullopt;
  const DumpJsonHeader &whole = outline->header, &at_data = outline->at_data;
  const bool is_debug = ReadsAsDebugJson(path, at_data.level);
  if (whole.task.empty() || !whole.has_data || is_debug != ReadsAsDebugJson(path, whole.level) ||
      whole.framework != at_data.framework) {
    return std::nullopt;
  }
  OutlinedDump dump{std::move(*outline), is_debug, {}};
  dump.orders = EntryCallOrders(dump.outline.entries, is_debug);
  return dump;
}

// The dump's mode as its first entries tell it (nullopt: a task compare refuses). A statistics dump
// holds md5 summaries when one entry does (docs/compare.md §2.1), so md5 among the first 64 settles
// it. Without, the plan assumes none: the slices report on every entry they read
// (StatisticsSlice::md5_unseen), and the plan looks at the text of the golden entries no target entry
// matches, which only the first slice reads.
std::optional<CompareMode> ModeOf(const std::string& path, const OutlinedDump& dump) {
  const std::string& task = dump.outline.header.task;
  if (task == "tensor") return CompareMode::kTensor;
  if (task != "statistics") return std::nullopt;
  const std::vector<JsonMemberSpan>& entries = dump.outline.entries;
  constexpr size_t kLook = 64;
  const std::vector<JsonMemberSpan> first(entries.begin(), entries.begin() + std::min(kLook, entries.size()));
  const std::vector<CallOrder> orders(dump.orders.begin(), dump.orders.begin() + first.size());
  bool has_md5 = false;
  const Status read = StreamFlatEntries(path, "", dump.outline.at_data, first, orders, SIZE_MAX,
                                        [](const FlatDump&, std::vector<OpRow>*) { return Status::Ok(); }, &has_md5);
  if (!read.ok()) return std::nullopt;
  return has_md5 ? CompareMode::kMd5 : CompareMode::kSummary;
}

// Whether the text of these entries could hold md5 summaries: it says "md5", or has an escape that
// could spell it.
bool MayHoldMd5(const std::string& path, const std::vector<JsonMemberSpan>& entries) {
  if (entries.empty()) return false;
  Result<std::shared_ptr<MappedFile>> file = MappedFile::Open(path);
  if (!file.ok()) return true;
  Result<MappedRegion> region = (*file)->MapAll();
  if (!region.ok()) return true;
  const std::string_view text = AsChars(region->bytes());
  // Horspool skips three bytes a step where "md5" is absent.
  const std::boyer_moore_horspool_searcher md5(std::string_view("md5").begin(), std::string_view("md5").end());
  for (const JsonMemberSpan& entry : entries) {
    if (entry.end > text.size()) return true;
    const std::string_view value = text.substr(entry.begin, entry.end - entry.begin);
    if (std::search(value.begin(), value.end(), md5) != value.end() || value.find("\\u") != std::string_view::npos) {
      return true;
    }
  }
  return false;
}

FlatDump HeaderOf(const std::string& path, const OutlinedDump& dump, CompareMode mode) {
  FlatDump flat;
  flat.json_path = path;
  flat.task = dump.outline.header.task;
  flat.level = dump.outline.header.level;
  flat.framework = dump.outline.header.framework;
  flat.is_debug = dump.is_debug;
  flat.mode = mode;
  return flat;
}

// The key an entry's rows match on, less the rows' own suffix: the key itself, or a backward entry's
// with its call number renumbered (docs/compare.md §3.1).
std::string EntryMatchKey(const std::string& key, CallOrder order, bool renumbers) {
  if (!renumbers || !MayBeBackwardKey(key)) return key;
  OpRow row;
  row.api = key;
  row.name = key;
  row.backward_call_order = order.backward;
  return BackwardRenumberedName(row);
}

// The entries of each match key (an index of the golden side): the first entry of a key, and after
// each entry the next with its key. One allocation for the keys, none per key.
class EntriesByKey {
 public:
  static constexpr size_t kNone = SIZE_MAX;

  explicit EntriesByKey(const std::vector<std::string>& keys) : next_(keys.size(), kNone) {
    first_.reserve(keys.size());
    std::vector<size_t> last(keys.size());  // of a key's first entry: its last so far
    for (size_t i = 0; i < keys.size(); ++i) {
      const auto [it, inserted] = first_.try_emplace(keys[i], i);
      if (inserted) {
        last[i] = i;
      } else {
        next_[last[it->second]] = i;
        last[it->second] = i;
      }
    }
  }
  // The first entry with `key`, or kNone.
  size_t First(std::string_view key) const {
    const auto it = first_.find(key);
    return it == first_.end() ? kNone : it->second;
  }
  size_t Next(size_t entry) const { return next_[entry]; }
  bool Has(std::string_view key) const { return first_.count(key) != 0; }

 private:
  std::unordered_map<std::string_view, size_t> first_;
  std::vector<size_t> next_;
};

// Whether rows of two different entries could share a match key. A row's key is its entry's match key
// and then its suffix, which is empty or starts with '.': two entries' rows can meet only when one
// match key is the other followed by '.' and more (or a key starts with '.', where the suffix need not).
// `target` holds the target's keys, each once.
bool KeysMayMeet(const std::unordered_set<std::string_view>& target, const EntriesByKey& golden,
                 const std::vector<std::string>& target_keys, const std::vector<std::string>& golden_keys) {
  // A key's first n dots end a prefix with n - 1 dots, which can be a key only if some key has that
  // many. A dump's keys have a few dot counts (an API's 3, a module's 4), so most prefixes need no lookup.
  std::vector<bool> dots_held;
  for (const std::vector<std::string>* keys : {&target_keys, &golden_keys}) {
    for (const std::string& key : *keys) {
      if (key.starts_with('.')) return true;
      const size_t dots = static_cast<size_t>(std::count(key.begin(), key.end(), '.'));
      if (dots >= dots_held.size()) dots_held.resize(dots + 1);
      dots_held[dots] = true;
    }
  }
  for (const std::vector<std::string>* keys : {&target_keys, &golden_keys}) {
    for (const std::string_view key : *keys) {
      size_t dots = 0;
      for (size_t dot = key.find('.'); dot != std::string_view::npos; dot = key.find('.', dot + 1), ++dots) {
        if (!dots_held[dots]) continue;
        const std::string_view prefix = key.substr(0, dot);
        if (target.count(prefix) != 0 || golden.Has(prefix)) return true;
      }
    }
  }
  return false;
}

std::vector<std::string> MatchKeys(const OutlinedDump& dump, bool renumbers) {
  std::vector<std::string> keys;
  keys.reserve(dump.outline.entries.size());
  for (size_t i = 0; i < dump.outline.entries.size(); ++i) {
    keys.push_back(EntryMatchKey(dump.outline.entries[i].key, dump.orders[i], renumbers));
  }
  return keys;
}

void Take(const OutlinedDump& dump, size_t entry, EntrySlice* slice) {
  slice->entries.push_back(dump.outline.entries[entry]);
  slice->orders.push_back(dump.orders[entry]);
}

}  // namespace

std::optional<std::vector<StatisticsSlice>> PlanStatisticsSlices(const CompareOptions& options,
                                                                 const ComparePairSpec& spec, size_t slices) {
  if (!MayStream(options, spec)) return std::nullopt;
  std::optional<OutlinedDump> target, golden;
  std::optional<CompareMode> target_mode, golden_mode;
  const auto read = [](const std::string& path, std::optional<OutlinedDump>* dump, std::optional<CompareMode>* mode) {
    *dump = Outline(path);
    if (*dump) *mode = ModeOf(path, **dump);
  };
  // The golden on a thread of its own, outside TBB: the processes that share this host wait for this
  // plan, so their cores are free, while TBB runs on this process's share of them.
  std::future<void> golden_read =
      std::async(std::launch::async, [&] { read(spec.golden_json, &golden, &golden_mode); });
  read(spec.target_json, &target, &target_mode);
  golden_read.get();
  if (!target_mode || !golden_mode || target->outline.entries.empty()) return std::nullopt;
  const CompareMode mode = ComparedMode(options, *golden_mode);
  // No md5 among the first entries of a statistics side: none assumed, the slices to confirm it.
  const bool md5_unseen = *target_mode == CompareMode::kSummary || *golden_mode == CompareMode::kSummary;
  if (mode == CompareMode::kTensor ||
      !CheckFrameworks(HeaderOf(spec.target_json, *target, *target_mode),
                       HeaderOf(spec.golden_json, *golden, *golden_mode), options)
           .ok()) {
    return std::nullopt;
  }
  // Rows match on their keys, renumbered unless the target is a debug.json (MatchOptions::is_debug).
  const bool renumbers = !target->is_debug;
  // The golden's keys and their index on a thread of their own, as its outline above.
  std::vector<std::string> golden_keys;
  std::optional<EntriesByKey> indexed;
  std::future<void> golden_indexed = std::async(std::launch::async, [&] {
    golden_keys = MatchKeys(*golden, renumbers);
    indexed.emplace(golden_keys);
  });
  const std::vector<std::string> target_keys = MatchKeys(*target, renumbers);
  // A key twice in the target: -da's API batches could meet across a slice's edge (PairOutputs::split_api).
  std::unordered_set<std::string_view> unique;
  unique.reserve(target_keys.size());
  bool repeated = false;
  for (const std::string& key : target_keys) repeated = !unique.insert(key).second || repeated;
  golden_indexed.get();
  const EntriesByKey& golden_by_key = *indexed;
  if (repeated || KeysMayMeet(unique, golden_by_key, target_keys, golden_keys)) return std::nullopt;

  // Target entries in contiguous ranges of about equal bytes; each range with the golden entries of
  // its keys, in file order.
  const std::vector<JsonMemberSpan>& entries = target->outline.entries;
  const size_t first = entries.front().begin, bytes = entries.back().end - first;
  std::vector<StatisticsSlice> plan(slices);
  std::vector<bool> read_by_slice(golden->outline.entries.size());
  std::vector<size_t> first_golden;  // the first slice's golden entries
  size_t entry = 0;
  for (size_t s = 0; s < slices; ++s) {
    StatisticsSlice& slice = plan[s];
    slice.target_header = target->outline.at_data;
    slice.golden_header = golden->outline.at_data;
    slice.mode = mode;
    slice.md5_unseen = md5_unseen;
    const size_t until = first + bytes * (s + 1) / slices;
    std::vector<size_t> matched;
    for (; entry < entries.size() && (s + 1 == slices || entries[entry].begin < until); ++entry) {
      Take(*target, entry, &slice.target);
      for (size_t g = golden_by_key.First(target_keys[entry]); g != EntriesByKey::kNone; g = golden_by_key.Next(g)) {
        matched.push_back(g);
      }
    }
    std::sort(matched.begin(), matched.end());
    matched.erase(std::unique(matched.begin(), matched.end()), matched.end());
    for (size_t g : matched) read_by_slice[g] = true;
    if (s == 0) {
      first_golden = std::move(matched);
      continue;
    }
    for (size_t g : matched) Take(*golden, g, &slice.golden);
  }
  // The golden entries no target entry matches: their rows match none, and the first slice reads them
  // to count them (docs/compare.md §5.4).
  std::vector<JsonMemberSpan> unread;
  for (size_t g = 0; g < read_by_slice.size(); ++g) {
    if (read_by_slice[g]) continue;
    unread.push_back(golden->outline.entries[g]);
    first_golden.push_back(g);
  }
  if (md5_unseen && MayHoldMd5(spec.golden_json, unread)) return std::nullopt;
  std::sort(first_golden.begin(), first_golden.end());
  for (size_t g : first_golden) Take(*golden, g, &plan[0].golden);
  return plan;
}

}  // namespace msprobe::compare::internal
