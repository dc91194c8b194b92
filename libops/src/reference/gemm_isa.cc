// Picks the copy of the float64 GEMM (gemm_kernel.cc, one per instruction set) that this CPU runs: the
// last one of the table below that it has, or MSPROBE_ISA's. Built without -m flags, as the rest of
// libops: it only reads cpuid, so it runs on every CPU of the architecture.
#include "msprobe/ops/reference/gemm_isa.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdlib>
#include <vector>

#include "reference/gemm_kernel_internal.h"
#include "reference/op_kernels_internal.h"

namespace msprobe::ops {
namespace internal {
namespace {

struct GemmVariant {
  std::string_view name;
  GemmFn gemm;
  bool (*runs)();  // whether this CPU has every instruction set the copy was built for
};

bool Always() { return true; }

#if defined(__x86_64__)
// The flags of each copy (libops/CMakeLists.txt) and what is checked here must name the same sets;
// __builtin_cpu_supports also checks that the OS saves the wider registers (XGETBV).
bool HasAvx2Fma() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}
bool HasAvx512() {
  return HasAvx2Fma() && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
}
constexpr GemmVariant kVariants[] = {
    {"sse2", GemmSse2, Always}, {"avx2", GemmAvx2, HasAvx2Fma}, {"avx512", GemmAvx512, HasAvx512}};
#elif defined(__aarch64__)
constexpr GemmVariant kVariants[] = {{"neon", GemmNeon, Always}};  // NEON is aarch64's baseline
#else
constexpr GemmVariant kVariants[] = {{"generic", GemmGeneric, Always}};
#endif

constexpr const char* kWhatToDo = "unset MSPROBE_ISA or name one of those";

struct Choice {
  const GemmVariant* variant = nullptr;  // never one the CPU lacks
  Status status = Status::Ok();          // MSPROBE_ISA's error, if any
  std::vector<std::string_view> runnable;
};

Choice Choose() {
  Choice c;
  std::vector<std::string_view> built;
  for (const GemmVariant& v : kVariants) {
    built.push_back(v.name);
    if (v.runs()) c.runnable.push_back(v.name), c.variant = &v;
  }
  const char* forced = std::getenv("MSPROBE_ISA");
  if (forced == nullptr || *forced == '\0') return c;
  for (const GemmVariant& v : kVariants) {
    if (v.name != forced) continue;
    if (v.runs()) {
      c.variant = &v;
    } else {
      c.status = Status::InvalidInput(
          "MSPROBE_ISA", fmt::format("this CPU lacks {} (it runs {}); {}", forced, fmt::join(c.runnable, ", "), kWhatToDo));
    }
    return c;
  }
  c.status = Status::InvalidInput(
      "MSPROBE_ISA", fmt::format("no instruction set '{}' in this build (it has {}); {}", forced, fmt::join(built, ", "), kWhatToDo));
  return c;
}

const Choice& TheChoice() {
  static const Choice choice = Choose();
  return choice;
}

}  // namespace

void Gemm(const double* a, const double* b, double* c, int64_t m, int64_t k, int64_t n, bool b_transposed) {
  static const GemmFn gemm = TheChoice().variant->gemm;
  gemm(a, b, c, m, k, n, b_transposed);
}

}  // namespace internal

Result<std::string_view> GemmIsa() {
  const internal::Choice& c = internal::TheChoice();
  if (!c.status.ok()) return c.status;
  return c.variant->name;
}

std::string GemmIsaLine() {
  const internal::Choice& c = internal::TheChoice();
  if (!c.status.ok()) return "Float64 GEMMs: " + c.status.ToString();
  return fmt::format("Float64 GEMMs run on {} (this CPU runs {}; MSPROBE_ISA=<one of them> forces one)", c.variant->name,
                     fmt::join(c.runnable, ", "));
}

}  // namespace msprobe::ops
