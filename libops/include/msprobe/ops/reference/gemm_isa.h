// Which instruction set the float64 GEMMs of the references run on (docs/ops.md §4): chosen once, at
// the first call, as the best one this CPU has, or the one the environment variable MSPROBE_ISA names.
#pragma once

#include <string>
#include <string_view>

#include "msprobe/dump/util/status.h"

namespace msprobe::ops {

// The GEMMs' instruction set: "sse2", "avx2" (with FMA) or "avx512" (F and DQ, with FMA) on x86-64,
// "neon" on aarch64. An error when MSPROBE_ISA names a set this program was not built with or this
// CPU lacks; the GEMMs then run the best set the CPU has, so a program checks this before its work.
Result<std::string_view> GemmIsa();

// One line for --help: the set in use and the ones this CPU has, or GemmIsa()'s error.
std::string GemmIsaLine();

}  // namespace msprobe::ops
