// Formats a large output in blocks on all cores and hands the blocks on in order. At most a few
// blocks are in flight, so memory stays bounded however large the output (the csv of a million rows,
// the -da json several times the dump).
#pragma once

#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>

#include <string>
#include <utility>

#include "msprobe/dump/status.h"

namespace msprobe::compare::internal {

using BlockRange = std::pair<size_t, size_t>;

// `next_block(&range)` says what the next block covers, false once there is none; `format(range)`
// runs in parallel; `write(text)` gets the blocks in order and its first error stops the writing.
template <class NextBlock, class Format, class Write>
Status FormatBlocksInOrder(NextBlock&& next_block, Format&& format, Write&& write) {
  Status status;
  tbb::parallel_pipeline(
      2 * tbb::this_task_arena::max_concurrency() + 1,
      tbb::make_filter<void, BlockRange>(tbb::filter_mode::serial_in_order,
                                         [&](tbb::flow_control& fc) {
                                           BlockRange range{};
                                           if (!next_block(&range)) fc.stop();
                                           return range;
                                         }) &
          tbb::make_filter<BlockRange, std::string>(tbb::filter_mode::parallel, format) &
          tbb::make_filter<std::string, void>(tbb::filter_mode::serial_in_order, [&](const std::string& text) {
            if (status.ok()) status = write(text);
          }));
  return status;
}

}  // namespace msprobe::compare::internal
