// Runs work items on all cores and hands their results on in order, with at most a few items in
// flight, so memory stays bounded however much work there is: blocks of a large output (the csv of
// a million rows, the -da json several times the dump), or whole rank pairs of a compare.
#pragma once

#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>

#include <atomic>
#include <string>
#include <type_traits>
#include <utility>

#include "msprobe/dump/util/status.h"

namespace msprobe::compare::internal {

// `next(&item)` gives the items, false once there is none; `map(item)` runs in parallel, at most
// `in_flight` at once; `consume(result)` gets the results in item order. Its first error is
// returned, and no item is taken after it.
template <class Item, class Out, class Next, class Map, class Consume>
Status MapInOrder(size_t in_flight, Next&& next, Map&& map, Consume&& consume) {
  Status status;
  std::atomic<bool> failed{false};
  tbb::parallel_pipeline(
      in_flight,
      tbb::make_filter<void, Item>(tbb::filter_mode::serial_in_order,
                                   [&](tbb::flow_control& fc) {
                                     Item item{};
                                     if (failed.load() || !next(&item)) fc.stop();
                                     return item;
                                   }) &
          tbb::make_filter<Item, Out>(tbb::filter_mode::parallel, map) &
          tbb::make_filter<Out, void>(tbb::filter_mode::serial_in_order, [&](Out result) {
            if (!status.ok()) return;
            status = consume(std::move(result));
            if (!status.ok()) failed.store(true);
          }));
  return status;
}

using BlockRange = std::pair<size_t, size_t>;

// Blocks of one output: `next_block(&range)` says what the next block covers, `format(range)` makes
// its text (a string, or anything that holds one), `write(text)` gets the texts in order.
template <class NextBlock, class Format, class Write>
Status FormatBlocksInOrder(NextBlock&& next_block, Format&& format, Write&& write) {
  using Text = std::invoke_result_t<Format&, BlockRange>;
  return MapInOrder<BlockRange, Text>(2 * tbb::this_task_arena::max_concurrency() + 1, next_block, format,
                                      [&](const Text& text) { return write(text); });
}

}  // namespace msprobe::compare::internal
