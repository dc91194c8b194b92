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
void StreamGaps(const std::vector<CallEntry>& npu_calls, const std::vector<CallEntry>& bench_calls,
                const std::vector<uint32_t>& npu_stream, const std::vector<uint32_t>& bench_stream,
                std::vector<CallGap>* gaps) {
  std::vector<uint32_t> bench_place(bench_calls.size(), kNoCall);
  for (uint32_t p = 0; p < bench_stream.size(); ++p) bench_place[bench_stream[p]] = p;
  std::vector<std::pair<uint32_t, uint32_t>> anchors;
  for (uint32_t p = 0; p < npu_stream.size(); ++p) {
    const uint32_t anchor = npu_calls[npu_stream[p]].anchor;
    if (anchor != kNoCall && bench_place[anchor] != kNoCall) anchors.emplace_back(p, bench_place[anchor]);
  }
  std::vector<std::pair<uint32_t, uint32_t>> bounds = OrderedAnchors(anchors);
  bounds.emplace_back(static_cast<uint32_t>(npu_stream.size()), static_cast<uint32_t>(bench_stream.size()));
  uint32_t npu_from = 0, bench_from = 0;
  for (const auto& [npu_to, bench_to] : bounds) {
    CallGap gap;
    gap.npu_span = npu_to - npu_from;
    gap.bench_span = bench_to - bench_from;
    FillGapSide(npu_calls, npu_stream, npu_from, npu_to, &gap.npu, &gap.npu_at);
    FillGapSide(bench_calls, bench_stream, bench_from, bench_to, &gap.bench, &gap.bench_at);
    if (!gap.npu.empty() && !gap.bench.empty()) gaps->push_back(std::move(gap));
    npu_from = npu_to + 1;
    bench_from = bench_to + 1;
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

void MarkPaired(const std::vector<RowPair>& pairs, size_t npu_rows, size_t bench_rows, std::vector<CallEntry>* npu_calls,
                std::vector<CallEntry>* bench_calls) {
  const std::vector<uint32_t> npu_entry = EntryOfRow(*npu_calls, npu_rows);
  const std::vector<uint32_t> bench_entry = EntryOfRow(*bench_calls, bench_rows);
  std::vector<uint32_t> present(npu_calls->size(), 0);  // per target entry: its rows in a pair
  for (CallEntry& call : *bench_calls) call.open = true;
  for (const RowPair& pair : pairs) {
    CallEntry& call = (*npu_calls)[npu_entry[pair.npu]];
    ++present[npu_entry[pair.npu]];
    if (!pair.bench) continue;
    if (call.anchor == kNoCall) call.anchor = bench_entry[*pair.bench];
    (*bench_calls)[bench_entry[*pair.bench]].open = false;
  }
  // An entry the -fm queue left out of the output (docs/compare.md §3.5) is not open: nothing of it is written.
  for (size_t e = 0; e < npu_calls->size(); ++e) {
    CallEntry& call = (*npu_calls)[e];
    call.open = call.anchor == kNoCall && present[e] == call.rows.count;
  }
}

std::vector<CallGap> FindGaps(const std::vector<CallEntry>& npu_calls, const std::vector<CallEntry>& bench_calls) {
  const auto npu_streams = ByStream(npu_calls), bench_streams = ByStream(bench_calls);
  std::vector<CallGap> gaps;
  for (size_t s = 0; s < kCallStreams; ++s) StreamGaps(npu_calls, bench_calls, npu_streams[s], bench_streams[s], &gaps);
  return gaps;
}

}  // namespace msprobe::compare::internal
