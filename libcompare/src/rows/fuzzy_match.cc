#include "msprobe/compare/rows/fuzzy_match.h"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <utility>

namespace msprobe::compare {
namespace {

// Python's s.rsplit('.', 2)[0]: the text before the second-to-last '.' (or before the only one).
std::string_view DropLastTwoComponents(std::string_view s) {
  const size_t last = s.rfind('.');
  if (last == std::string_view::npos) return s;
  if (last == 0) return s.substr(0, 0);
  const size_t before = s.rfind('.', last - 1);
  return s.substr(0, before == std::string_view::npos ? last : before);
}

// msprobe `match_op`: where the newest items of the two queues meet an earlier item of the other.
std::optional<std::pair<size_t, size_t>> MatchPoint(const std::vector<size_t>& target_queue,
                                                    const std::vector<size_t>& golden_queue,
                                                    const std::vector<std::string>& target_names,
                                                    const std::vector<std::string>& golden_names) {
  const size_t target_last = target_queue.size() - 1, golden_last = golden_queue.size() - 1;
  const std::string& newest_target = target_names[target_queue[target_last]];
  for (size_t b = 0; b < golden_last; ++b) {
    if (newest_target == golden_names[golden_queue[b]]) return std::pair{target_last, b};
  }
  if (newest_target == golden_names[golden_queue[golden_last]]) return std::pair{target_last, golden_last};
  for (size_t n = 0; n < target_last; ++n) {
    if (target_names[target_queue[n]] == golden_names[golden_queue[golden_last]]) return std::pair{n, golden_last};
  }
  return std::nullopt;
}

}  // namespace

std::string FuzzyRename(std::string_view name) {
  std::string_view word = "forward";
  size_t at = name.find(word);
  if (at == std::string_view::npos) {
    word = "backward";
    at = name.find(word);
  }
  if (at == std::string_view::npos) return std::string(name);
  // Python's name.split(word)[1]: only the text up to the word's next occurrence survives.
  const std::string_view after = name.substr(at + word.size());
  const std::string_view tail = after.substr(0, after.find(word));
  std::string out(DropLastTwoComponents(name.substr(0, at)));
  out += '.';
  out += word;
  out += tail;
  return out;
}

std::vector<RowPair> FuzzyMatchKeys(const std::vector<std::string_view>& target_keys,
                                    const std::vector<std::string_view>& golden_keys) {
  std::vector<std::string> target_names, golden_names;
  target_names.reserve(target_keys.size());
  golden_names.reserve(golden_keys.size());
  for (const std::string_view key : target_keys) target_names.push_back(FuzzyRename(key));
  for (const std::string_view key : golden_keys) golden_names.push_back(FuzzyRename(key));

  std::vector<RowPair> out;
  std::vector<size_t> target_queue, golden_queue;
  const size_t max_len = std::max(target_keys.size(), golden_keys.size());
  for (size_t i = 0; i < max_len; ++i) {
    if (i < target_keys.size()) target_queue.push_back(i);
    if (i < golden_keys.size()) golden_queue.push_back(i);
    // G3 stops here once one side has run dry; target rows not yet enqueued never reach the output.
    if (target_queue.empty() != golden_queue.empty()) break;
    const auto point = MatchPoint(target_queue, golden_queue, target_names, golden_names);
    if (!point) continue;
    const auto [target_at, golden_at] = *point;
    for (size_t n = 0; n < target_at; ++n) out.push_back({target_queue[n], std::nullopt});
    out.push_back({target_queue[target_at], golden_queue[golden_at]});
    target_queue.erase(target_queue.begin(), target_queue.begin() + static_cast<std::ptrdiff_t>(target_at + 1));
    golden_queue.erase(golden_queue.begin(), golden_queue.begin() + static_cast<std::ptrdiff_t>(golden_at + 1));
  }
  for (size_t n : target_queue) out.push_back({n, std::nullopt});
  return out;
}

}  // namespace msprobe::compare
