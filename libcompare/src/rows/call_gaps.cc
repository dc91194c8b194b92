#include "rows/call_gaps_internal.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>

namespace msprobe::compare::internal {
namespace {

// The entry of each row.
std::vector<uint32_t> EntryOfRow(const std::vector<CallEntry>& calls, size_t rows) {
  std::vector<uint32_t> entry(rows, kNoCall);
  for (size_t e = 0; e < calls.size(); ++e) {
    std::fill_n(entry.begin() + static_cast<std::ptrdiff_t>(calls[e].rows.first), calls[e].rows.count,
                static_cast<uint32_t>(e));
  }
  return entry;
}

// The longest run of anchors (target place, golden place), given in target order, whose golden places
// increase too; the earliest such run.
std::vector<std::pair<uint32_t, uint32_t>> OrderedAnchors(const std::vector<std::pair<uint32_t, uint32_t>>& anchors) {
  std::vector<size_t> tails, previous(anchors.size(), SIZE_MAX);  // tails[k]: the run of length k+1 ending lowest
  for (size_t i = 0; i < anchors.size(); ++i) {
    const auto at = std::lower_bound(tails.begin(), tails.end(), anchors[i].second,
                                     [&](size_t t, uint32_t golden) { return anchors[t].second < golden; });
    if (at != tails.begin()) previous[i] = *(at - 1);
    if (at == tails.end()) {
      tails.push_back(i);
    } else {
      *at = i;
    }
  }
  std::vector<std::pair<uint32_t, uint32_t>> run;
  for (size_t i = tails.empty() ? SIZE_MAX : tails.back(); i != SIZE_MAX; i = previous[i]) run.push_back(anchors[i]);
  std::reverse(run.begin(), run.end());
  return run;
}

// The open entries of `stream_calls` between places `from` and `to` (exclusive).
void FillGapSide(const std::vector<CallEntry>& calls, const std::vector<uint32_t>& stream_calls, uint32_t from,
                 uint32_t to, std::vector<uint32_t>* entries, std::vector<uint32_t>* at) {
  for (uint32_t place = from; place < to; ++place) {
    if (!calls[stream_calls[place]].open) continue;
    entries->push_back(stream_calls[place]);
    at->push_back(place - from);
  }
}

// The gaps of one stream, given each side's entries of it in order.
void StreamGaps(const std::vector<CallEntry>& target_calls, const std::vector<CallEntry>& golden_calls,
                const std::vector<uint32_t>& target_stream, const std::vector<uint32_t>& golden_stream,
                std::vector<CallGap>* gaps) {
  std::vector<uint32_t> golden_place(golden_calls.size(), kNoCall);
  for (uint32_t p = 0; p < golden_stream.size(); ++p) golden_place[golden_stream[p]] = p;
  std::vector<std::pair<uint32_t, uint32_t>> anchors;
  for (uint32_t p = 0; p < target_stream.size(); ++p) {
    const uint32_t anchor = target_calls[target_stream[p]].anchor;
    if (anchor != kNoCall && golden_place[anchor] != kNoCall) anchors.emplace_back(p, golden_place[anchor]);
  }
  std::vector<std::pair<uint32_t, uint32_t>> bounds = OrderedAnchors(anchors);
  bounds.emplace_back(static_cast<uint32_t>(target_stream.size()), static_cast<uint32_t>(golden_stream.size()));
  uint32_t target_from = 0, golden_from = 0;
  for (const auto& [target_to, golden_to] : bounds) {
    CallGap gap;
    gap.target_span = target_to - target_from;
    gap.golden_span = golden_to - golden_from;
    FillGapSide(target_calls, target_stream, target_from, target_to, &gap.target, &gap.target_at);
    FillGapSide(golden_calls, golden_stream, golden_from, golden_to, &gap.golden, &gap.golden_at);
    if (!gap.target.empty() && !gap.golden.empty()) gaps->push_back(std::move(gap));
    target_from = target_to + 1;
    golden_from = golden_to + 1;
  }
}

std::array<std::vector<uint32_t>, kCallStreams> ByStream(const std::vector<CallEntry>& calls) {
  std::array<std::vector<uint32_t>, kCallStreams> streams;
  for (uint32_t e = 0; e < calls.size(); ++e) {
    if (calls[e].stream != CallStream::kNone) streams[static_cast<size_t>(calls[e].stream)].push_back(e);
  }
  return streams;
}

}  // namespace

std::vector<CallEntry> SplitCalls(const std::vector<OpRow>& rows) {
  std::vector<CallEntry> calls;
  for (size_t r = 0; r < rows.size(); ++r) {
    if (r == 0 || rows[r].api != rows[r - 1].api) calls.push_back({{r, 0}});
    ++calls.back().rows.count;
  }
  tbb::parallel_for(size_t{0}, calls.size(), [&](size_t e) {
    calls[e].stream = StreamOf(SplitKey(rows[calls[e].rows.first].api, /*is_debug=*/false));
  });
  return calls;
}

void MarkPaired(const std::vector<RowPair>& pairs, size_t target_rows, size_t golden_rows,
                std::vector<CallEntry>* target_calls, std::vector<CallEntry>* golden_calls) {
  const std::vector<uint32_t> target_entry = EntryOfRow(*target_calls, target_rows);
  const std::vector<uint32_t> golden_entry = EntryOfRow(*golden_calls, golden_rows);
  std::vector<uint32_t> present(target_calls->size(), 0);  // per target entry: its rows in a pair
  for (CallEntry& call : *golden_calls) call.open = true;
  for (const RowPair& pair : pairs) {
    CallEntry& call = (*target_calls)[target_entry[pair.target]];
    ++present[target_entry[pair.target]];
    if (!pair.golden) continue;
    if (call.anchor == kNoCall) call.anchor = golden_entry[*pair.golden];
    (*golden_calls)[golden_entry[*pair.golden]].open = false;
  }
  // An entry the -fm queue left out of the output (docs/compare.md §3.5) is not open: nothing of it is written.
  for (size_t e = 0; e < target_calls->size(); ++e) {
    CallEntry& call = (*target_calls)[e];
    call.open = call.anchor == kNoCall && present[e] == call.rows.count;
  }
}

std::vector<CallGap> FindGaps(const std::vector<CallEntry>& target_calls, const std::vector<CallEntry>& golden_calls) {
  const auto target_streams = ByStream(target_calls), golden_streams = ByStream(golden_calls);
  std::vector<CallGap> gaps;
  for (size_t s = 0; s < kCallStreams; ++s) {
    StreamGaps(target_calls, golden_calls, target_streams[s], golden_streams[s], &gaps);
  }
  return gaps;
}

}  // namespace msprobe::compare::internal
