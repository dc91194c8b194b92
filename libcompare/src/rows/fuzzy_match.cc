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
std::optional<std::pair<size_t, size_t>> MatchPoint(const std::vector<size_t>& npu_queue,
                                                    const std::vector<size_t>& bench_queue,
                                                    const std::vector<std::string>& npu_names,
                                                    const std::vector<std::string>& bench_names) {
  const size_t npu_last = npu_queue.size() - 1, bench_last = bench_queue.size() - 1;
  const std::string& newest_npu = npu_names[npu_queue[npu_last]];
  for (size_t b = 0; b < bench_last; ++b) {
    if (newest_npu == bench_names[bench_queue[b]]) return std::pair{npu_last, b};
  }
  if (newest_npu == bench_names[bench_queue[bench_last]]) return std::pair{npu_last, bench_last};
  for (size_t n = 0; n < npu_last; ++n) {
    if (npu_names[npu_queue[n]] == bench_names[bench_queue[bench_last]]) return std::pair{n, bench_last};
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

std::vector<RowPair> FuzzyMatchKeys(const std::vector<std::string_view>& npu_keys,
                                    const std::vector<std::string_view>& bench_keys) {
  std::vector<std::string> npu_names, bench_names;
  npu_names.reserve(npu_keys.size());
  bench_names.reserve(bench_keys.size());
  for (const std::string_view key : npu_keys) npu_names.push_back(FuzzyRename(key));
  for (const std::string_view key : bench_keys) bench_names.push_back(FuzzyRename(key));

  std::vector<RowPair> out;
  std::vector<size_t> npu_queue, bench_queue;
  const size_t max_len = std::max(npu_keys.size(), bench_keys.size());
  for (size_t i = 0; i < max_len; ++i) {
    if (i < npu_keys.size()) npu_queue.push_back(i);
    if (i < bench_keys.size()) bench_queue.push_back(i);
    // G3 stops here once one side has run dry; NPU rows not yet enqueued never reach the output.
    if (npu_queue.empty() != bench_queue.empty()) break;
    const auto point = MatchPoint(npu_queue, bench_queue, npu_names, bench_names);
    if (!point) continue;
    const auto [npu_at, bench_at] = *point;
    for (size_t n = 0; n < npu_at; ++n) out.push_back({npu_queue[n], std::nullopt});
    out.push_back({npu_queue[npu_at], bench_queue[bench_at]});
    npu_queue.erase(npu_queue.begin(), npu_queue.begin() + static_cast<std::ptrdiff_t>(npu_at + 1));
    bench_queue.erase(bench_queue.begin(), bench_queue.begin() + static_cast<std::ptrdiff_t>(bench_at + 1));
  }
  for (size_t n : npu_queue) out.push_back({n, std::nullopt});
  return out;
}

}  // namespace msprobe::compare
