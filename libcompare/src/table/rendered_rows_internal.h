// A table's rows rendered in blocks on all cores and handed on in order (util/ordered_pipeline), by
// the output formats that write them or keep them for another process's file (table/rendered_rows.h),
// and by the workbook's spool of encoded rows.
#pragma once

#include <algorithm>
#include <cstddef>
#include <utility>

#include "msprobe/compare/table/rendered_rows.h"
#include "msprobe/dump/util/status.h"
#include "util/ordered_pipeline_internal.h"

namespace msprobe::compare::internal {

// Rows [begin, end) in blocks of `block_rows`: `render(range, &block)` renders a block's rows (each
// row's size pushed after its bytes), in parallel; `take(block)` gets the blocks in order.
template <class Render, class Take>
Status RenderRowsInOrder(size_t begin, size_t end, size_t block_rows, Render&& render, Take&& take) {
  size_t next = begin;
  return FormatBlocksInOrder(
      [&](BlockRange* range) {
        *range = {next, std::min(end, next + block_rows)};
        next = range->second;
        return range->first < end;
      },
      [&](BlockRange range) {
        RenderedRows block;
        render(range, &block);
        return block;
      },
      take);
}

// Rows [0, rows) rendered as above, appended to `into`.
template <class Render>
void RenderRows(size_t rows, size_t block_rows, Render&& render, RenderedRows* into) {
  const Status taken = RenderRowsInOrder(0, rows, block_rows, render, [&](const RenderedRows& block) {
    into->Append(block);
    return Status::Ok();
  });
  (void)taken;  // appending to memory never fails
}

}  // namespace msprobe::compare::internal
