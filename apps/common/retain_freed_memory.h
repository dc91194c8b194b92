// Process-wide allocator policy for programs that free and reallocate gigabytes over and over.
#pragma once

namespace msprobe::cli {

// Asks glibc's malloc to keep freed memory for reuse instead of handing it back to the kernel:
// large blocks come from the heap rather than from mappings of their own (which are unmapped when
// freed), and the heap is trimmed only when more than 1 GiB at its top is free. A compare of many
// rank pairs builds and frees a few GB of rows per pair; without this, each pair's fresh pages cost
// a page fault apiece, which was a third of a -da run's CPU here. The cost is a few hundred MB of
// extra peak RSS in such runs. Call once, before the work starts.
void RetainFreedMemory();

}  // namespace msprobe::cli
