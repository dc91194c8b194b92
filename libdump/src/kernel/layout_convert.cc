#include "msprobe/dump/kernel/layout_convert.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <numeric>
#include <optional>
#include <variant>

#include "formats/dump_proto_enums_internal.h"

namespace msprobe {
namespace {

using Shape = std::vector<int64_t>;
using Table = std::vector<uint64_t>;

std::string ShapeText(const Shape& s) { return fmt::format("[{}]", fmt::join(s, ", ")); }
uint64_t CeilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
uint64_t U(int64_t v) { return static_cast<uint64_t>(v); }

// offsets[i] = f(i) for i < n.
template <class F>
Table MakeTable(int64_t n, F f) {
  Table t(U(n));
  for (uint64_t i = 0; i < t.size(); ++i) t[i] = f(i);
  return t;
}
Table Strided(int64_t n, uint64_t stride) { return MakeTable(n, [&](uint64_t i) { return i * stride; }); }
// A channel split as c / C0 (stride `outer`) and c % C0 (stride `inner`).
Table Split(int64_t n, uint64_t c0, uint64_t outer, uint64_t inner) {
  return MakeTable(n, [&](uint64_t i) { return (i / c0) * outer + (i % c0) * inner; });
}

// The result of a format builder: a plan's blocks and target format, or why the shapes do not fit.
struct Gather {
  std::vector<GatherBlock> blocks;
  std::string format;
  std::string note;
};
using Built = std::variant<Gather, std::string>;

std::string Mismatch(const Shape& dev, const Shape& host, std::string_view why) {
  return fmt::format("original_shape {} does not fit device shape {} ({})", ShapeText(host), ShapeText(dev), why);
}

Gather Single(Shape host, std::vector<Table> tables, std::string format) {
  return Gather{{GatherBlock{std::move(host), std::move(tables)}}, std::move(format), ""};
}

bool Positive(const Shape& s) {
  return std::all_of(s.begin(), s.end(), [](int64_t d) { return d > 0; });
}

// NC1HWC0 and NC1HWC0_C04: [N, C1, H, W, C0] → NCHW.
Built FromNC1HWC0(const Shape& dev, const Shape& host) {
  if (dev.size() != 5 || host.size() != 4) return Mismatch(dev, host, "needs a 5-D device and a 4-D host shape");
  const int64_t n = host[0], c = host[1], h = host[2], w = host[3], c1 = dev[1], c0 = dev[4];
  if (dev[0] != n || dev[2] != h || dev[3] != w || c > c1 * c0) return Mismatch(dev, host, "N, H, W or C1·C0");
  const uint64_t hwc0 = U(h * w * c0);
  return Single(host, {Strided(n, U(c1) * hwc0), Split(c, U(c0), hwc0, 1), Strided(h, U(w * c0)), Strided(w, U(c0))},
                "NCHW");
}

// NDC1HWC0: [N, D, C1, H, W, C0] → NCDHW.
Built FromNDC1HWC0(const Shape& dev, const Shape& host) {
  if (dev.size() != 6 || host.size() != 5) return Mismatch(dev, host, "needs a 6-D device and a 5-D host shape");
  const int64_t n = host[0], c = host[1], d = host[2], h = host[3], w = host[4], c1 = dev[2], c0 = dev[5];
  if (dev[0] != n || dev[1] != d || dev[3] != h || dev[4] != w || c > c1 * c0) {
    return Mismatch(dev, host, "N, D, H, W or C1·C0");
  }
  const uint64_t hwc0 = U(h * w * c0);
  return Single(host,
                {Strided(n, U(d * c1) * hwc0), Split(c, U(c0), hwc0, 1), Strided(d, U(c1) * hwc0),
                 Strided(h, U(w * c0)), Strided(w, U(c0))},
                "NCDHW");
}

// FRACTAL_Z 4-D: [C1·H·W, N1, N0, C0] → NCHW; also FRACTAL_Z_3D [D·C1·H·W, N1, N0, C0] → NCDHW when d > 0.
Built FromFractalZ(const Shape& dev, const Shape& host, bool three_d) {
  const size_t rank = three_d ? 5 : 4;
  if (dev.size() != 4 || host.size() != rank) {
    return Mismatch(dev, host, three_d ? "needs a 4-D device and a 5-D host shape" : "needs 4-D shapes");
  }
  const int64_t n = host[0], c = host[1], d = three_d ? host[2] : 1, h = host[rank - 2], w = host[rank - 1];
  const int64_t n1n0 = dev[1] * dev[2], c0 = dev[3];
  const int64_t c1 = static_cast<int64_t>(CeilDiv(U(c), U(c0)));
  if (dev[0] != d * c1 * h * w || n > n1n0) return Mismatch(dev, host, "D·C1·H·W or N1·N0");
  const uint64_t cell = U(n1n0 * c0);  // one (c1, h, w) position holds N1·N0·C0 elements
  std::vector<Table> t{Strided(n, U(c0)), Split(c, U(c0), U(h * w) * cell, 1)};
  if (three_d) t.push_back(Strided(d, U(c1 * h * w) * cell));
  t.push_back(Strided(h, U(w) * cell));
  t.push_back(Strided(w, cell));
  return Single(host, std::move(t), three_d ? "NCDHW" : "NCHW");
}

// FRACTAL_Z of a 2-D weight [a, b] (correction 2). MindSpore pads it to NCHW [1, a, b, 1]: device
// [C1·b, 1, N0, C0]. GE reads it as (C = a, N = b), h = w = 1: device [C1, N1, N0, C0]. When b == 1
// both readings place every element at the same offset.
Built FromFractalZ2D(const Shape& dev, const Shape& host) {
  if (dev.size() != 4 || host.size() != 2) return Mismatch(dev, host, "needs a 4-D device and a 2-D host shape");
  const int64_t a = host[0], b = host[1], n1n0 = dev[1] * dev[2], c0 = dev[3];
  const int64_t c1 = static_cast<int64_t>(CeilDiv(U(a), U(c0)));
  if (dev[1] == 1 && dev[0] == c1 * b) {  // MindSpore: c = i, h = j
    return Single(host, {Split(a, U(c0), U(b * n1n0 * c0), 1), Strided(b, U(n1n0 * c0))}, "ND");
  }
  if (dev[0] == c1 && b <= n1n0) {  // GE: c = i, n = j
    return Single(host, {Split(a, U(c0), U(n1n0 * c0), 1), Strided(b, U(c0))}, "ND");
  }
  return Mismatch(dev, host, "neither MindSpore's [C1·b, 1, 16, C0] nor GE's [C1, N1, 16, C0]");
}

// FRACTAL_Z with groups (§3.3, MindSpore FracZToNchwWithGroups; msprobe's lcm typo not copied).
Built FromFractalZGroups(const Shape& dev, const Shape& host, int64_t groups, DType dtype) {
  if (dev.size() != 4 || host.size() != 4) return Mismatch(dev, host, "needs 4-D shapes");
  const int64_t n = host[0], cin = host[1], h = host[2], w = host[3], cube_k = dev[3];
  constexpr int64_t kCubeN = 16;
  if (cube_k > 64 || cin > (int64_t{1} << 31) || n > (int64_t{1} << 31)) {  // keeps the lcm terms in range
    return Mismatch(dev, host, "C, N or C0 too large for grouped FRACTAL_Z");
  }
  if (n % groups != 0) return Mismatch(dev, host, fmt::format("N is not a multiple of groups {}", groups));
  const int64_t cout = n / groups;
  const int64_t e_mult = std::min(
      {std::lcm(cin, cube_k) / cin, std::lcm(cout, kCubeN) / cout, groups});
  const int64_t cin_opt = static_cast<int64_t>(CeilDiv(U(e_mult * cin), U(cube_k))) * cube_k;
  const int64_t cout_opt = static_cast<int64_t>(CeilDiv(U(e_mult * cout), U(kCubeN))) * kCubeN;
  const int64_t c1 = cin_opt / cube_k;
  const int64_t g_count = static_cast<int64_t>(CeilDiv(U(groups), U(e_mult)));
  if (dev[0] != g_count * c1 * h * w || dev[1] * dev[2] != cout_opt) {
    return Mismatch(dev, host, fmt::format("groups {} need [{}, {}, ...]", groups, g_count * c1 * h * w, cout_opt));
  }
  const uint64_t cell = U(cout_opt * cube_k);
  Gather out{{}, "NCHW", ""};
  for (int64_t g = 0; g < groups; ++g) {
    const uint64_t e = U(g % e_mult);
    const uint64_t base = U(g / e_mult) * U(c1 * h * w) * cell;
    out.blocks.push_back(GatherBlock{
        {cout, cin, h, w},
        {MakeTable(cout, [&](uint64_t i) { return base + (e * U(cout) + i) * U(cube_k); }),
         MakeTable(cin, [&](uint64_t i) {
           const uint64_t ci = e * U(cin) + i;
           return (ci / U(cube_k)) * U(h * w) * cell + ci % U(cube_k);
         }),
         Strided(h, U(w) * cell), Strided(w, cell)}});
  }
  if (Info(dtype).bits == 8) {
    out.note = "grouped FRACTAL_Z with a 1-byte dtype is unverified (MindSpore's shape and data functions "
               "disagree on the cube size)";
  }
  return out;
}

// FRACTAL_NZ: [b…, W1, H1, H0, W0] → ND [b…, H, W]; rank 1 [W] is H = 1.
Built FromFractalNZ(const Shape& dev, const Shape& host) {
  const bool vector = host.size() == 1;
  const size_t batch = vector ? 0 : host.size() - 2;
  if (host.empty() || dev.size() != batch + 4) {
    return Mismatch(dev, host, "needs a device shape of the host's batch dims + 4");
  }
  const int64_t hh = vector ? 1 : host[batch], ww = host.back();
  const int64_t w1 = dev[batch], h1 = dev[batch + 1], h0 = dev[batch + 2], w0 = dev[batch + 3];
  if (!std::equal(host.begin(), host.begin() + static_cast<ptrdiff_t>(batch), dev.begin()) || hh > h1 * h0 ||
      ww > w1 * w0) {
    return Mismatch(dev, host, "batch dims, H1·H0 or W1·W0");
  }
  std::vector<Table> t;
  uint64_t stride = U(w1 * h1 * h0 * w0);
  for (size_t d = batch; d-- > 0;) {
    t.insert(t.begin(), Strided(host[d], stride));
    stride *= U(host[d]);
  }
  if (!vector) t.push_back(Strided(hh, U(w0)));
  t.push_back(Split(ww, U(w0), U(h1 * h0 * w0), 1));
  return Single(host, std::move(t), "ND");
}

// C1HWNCoC0: [C1, H, W, N, Co, C0] → NCHW; only the diagonal co == c0 holds data.
Built FromC1HWNCoC0(const Shape& dev, const Shape& host) {
  if (dev.size() != 6 || host.size() != 4) return Mismatch(dev, host, "needs a 6-D device and a 4-D host shape");
  const int64_t n = host[0], c = host[1], h = host[2], w = host[3], c1 = dev[0], c0 = dev[5];
  if (dev[1] != h || dev[2] != w || n > dev[3] || dev[4] != c0 || c > c1 * c0) {
    return Mismatch(dev, host, "H, W, N, Co or C1·C0");
  }
  const uint64_t nco = U(dev[3] * c0 * c0);
  return Single(host, {Strided(n, U(c0 * c0)), Split(c, U(c0), U(h * w) * nco, U(c0) + 1), Strided(h, U(w) * nco),
                       Strided(w, nco)}, "NCHW");
}

// NHWC [N, H, W, C] and HWCN [H, W, C, N] → NCHW when the original shape is their NCHW permutation.
Built FromPermuted(const Shape& dev, const Shape& host, bool hwcn) {
  if (dev.size() != 4 || host.size() != 4) return Mismatch(dev, host, "needs 4-D shapes");
  const int64_t n = host[0], c = host[1], h = host[2], w = host[3];
  const Shape expected = hwcn ? Shape{h, w, c, n} : Shape{n, h, w, c};
  if (dev != expected) return Mismatch(dev, host, "not its NCHW permutation");
  if (hwcn) return Single(host, {Strided(n, 1), Strided(c, U(n)), Strided(h, U(w * c * n)), Strided(w, U(c * n))}, "NCHW");
  return Single(host, {Strided(n, U(h * w * c)), Strided(c, 1), Strided(h, U(w * c)), Strided(w, U(c))}, "NCHW");
}

// Formats already in a host layout: reshaped to the original shape when the element counts agree.
bool IsPlain(int64_t format) {
  switch (format) {
    case kFormatNCHW: case kFormatND: case kFormatCHWN: case kFormatNDHWC: case kFormatNCDHW:
    case kFormatDHWCN: case kFormatCN: case kFormatNC: case kFormatDHWNC: case kFormatNCL:
      return true;
    default:
      return false;
  }
}

// Element count; UINT64_MAX when it overflows (original shapes are not checked by the reader).
uint64_t Numel(const Shape& s) {
  if (std::find(s.begin(), s.end(), 0) != s.end()) return 0;
  uint64_t n = 1;
  for (int64_t d : s) {
    if (n > UINT64_MAX / U(d)) return UINT64_MAX;
    n *= U(d);
  }
  return n;
}

std::optional<Built> BuildGather(const BinSlot& slot, const Shape& dev, const Shape& host) {
  switch (slot.format) {
    case kFormatNC1HWC0:
    case kFormatNC1HWC0_C04: return FromNC1HWC0(dev, host);
    case kFormatNDC1HWC0: return FromNDC1HWC0(dev, host);
    case kFormatFractalZ:
      if (slot.sub_format > 1) return FromFractalZGroups(dev, host, slot.sub_format, *slot.dtype);
      return host.size() == 2 ? FromFractalZ2D(dev, host) : FromFractalZ(dev, host, false);
    case kFormatFractalZ3D: return FromFractalZ(dev, host, true);
    case kFormatFractalNZ: return FromFractalNZ(dev, host);
    case kFormatC1HWNCoC0: return FromC1HWNCoC0(dev, host);
    case kFormatNHWC: return FromPermuted(dev, host, false);
    case kFormatHWCN: return FromPermuted(dev, host, true);
    default: return std::nullopt;
  }
}

}  // namespace

LayoutPlan PlanLayout(const BinSlot& slot, bool keep_device_format) {
  LayoutPlan plan;
  plan.host_shape = slot.tensor.shape;
  plan.format = std::string(ProtoFormatName(slot.format));
  if (!slot.dtype) return plan;  // raw bytes
  const Shape& dev = slot.tensor.shape;
  const bool has_original = slot.original_shape && !slot.original_shape->empty();
  if (IsPlain(slot.format)) {
    if (has_original && Numel(*slot.original_shape) == Numel(dev)) plan.host_shape = *slot.original_shape;
    return plan;
  }
  // An original shape equal to the device shape means the data is in host order already (NHWC/HWCN
  // kept as such, correction 1; an unpadded rank-1 FRACTAL_NZ, correction 3).
  if (has_original && *slot.original_shape == dev) return plan;
  if (keep_device_format) {
    plan.note = "device layout kept (--keep-device-format)";
    return plan;
  }
  if (!has_original) {
    plan.note = fmt::format("device layout kept: original_shape is {}", slot.original_shape ? "empty" : "unknown");
    return plan;
  }
  const Shape& host = *slot.original_shape;
  if (!Positive(dev) || !Positive(host)) {  // nothing to gather; reshape when the counts agree
    if (Numel(host) == Numel(dev)) plan.host_shape = host;
    return plan;
  }
  // Padding only adds elements: a larger host shape cannot fit (and would overflow the builders).
  uint64_t host_numel = 1;
  for (int64_t d : host) {
    if (host_numel > Numel(dev) / U(d)) {  // d > 0 here
      plan.note = fmt::format("device layout kept: original_shape {} has more elements than device shape {}",
                              ShapeText(host), ShapeText(dev));
      return plan;
    }
    host_numel *= U(d);
  }
  std::optional<Built> built = BuildGather(slot, dev, host);
  if (!built) {
    plan.note = fmt::format("device layout kept: no converter for {}", plan.format);
    return plan;
  }
  if (auto* why = std::get_if<std::string>(&*built)) {
    plan.note = "device layout kept: " + *why;
    return plan;
  }
  Gather& g = std::get<Gather>(*built);
  plan.host_shape = *slot.original_shape;
  plan.format = std::move(g.format);
  plan.converted = true;
  plan.blocks = std::move(g.blocks);
  plan.note = std::move(g.note);
  return plan;
}

namespace {

static_assert(std::endian::native == std::endian::little, "dump data is little-endian and is copied as is");

// Gives back the resident pages of part of a read-only file mapping; the page cache keeps them, so a
// later read only faults them in again. This bounds the memory of gathers that wander over the input.
void DropPages(const std::byte* begin, const std::byte* end) {
  static const uintptr_t kPage = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t first = reinterpret_cast<uintptr_t>(begin) & ~(kPage - 1);
  const uintptr_t last = reinterpret_cast<uintptr_t>(end);
  if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
}

// Element loaders: copy device element `offset` to `out` (int4: widen the nibble to int8).
template <size_t kItem>
struct CopyItem {
  static constexpr size_t kOutItem = kItem;
  static constexpr uint64_t kUnitsPerByte = 1;
  void operator()(const std::byte* dev, uint64_t offset, std::byte* out) const {
    std::memcpy(out, dev + offset * kItem, kItem);
  }
  static uint64_t ByteOf(uint64_t offset) { return offset * kItem; }
};
struct WidenInt4 {
  static constexpr size_t kOutItem = 1;
  void operator()(const std::byte* dev, uint64_t offset, std::byte* out) const {
    const auto byte = static_cast<uint8_t>(dev[offset / 2]);
    const uint8_t nibble = (offset % 2) ? byte >> 4 : byte & 0x0f;  // element 2i: low nibble
    *out = static_cast<std::byte>(static_cast<int8_t>(static_cast<uint8_t>(nibble << 4)) >> 4);
  }
  static uint64_t ByteOf(uint64_t offset) { return offset / 2; }
};

// Streams the plan's blocks in host order: rows of the last dim, cut into output chunks; the pages a
// run of chunks touched are dropped once `drop_bytes` of output have gone out.
template <class Load>
Status GatherBlocks(Bytes dev, const LayoutPlan& plan, const ElementSink& sink, uint64_t chunk_bytes,
                    uint64_t drop_bytes) {
  const Load load;
  const uint64_t chunk = std::max<uint64_t>(1, chunk_bytes / Load::kOutItem);
  std::vector<std::byte> buffer(chunk * Load::kOutItem);
  uint64_t filled = 0, since_drop = 0;
  uint64_t lo = UINT64_MAX, hi = 0;  // device elements touched since the last drop
  auto flush = [&]() -> Status {
    MSP_RETURN_IF_ERROR(sink(Bytes(buffer.data(), filled * Load::kOutItem)));
    since_drop += filled;
    filled = 0;
    if (since_drop * Load::kOutItem >= drop_bytes && lo <= hi) {
      DropPages(dev.data() + Load::ByteOf(lo), dev.data() + Load::ByteOf(hi) + 1);
      since_drop = 0;
      lo = UINT64_MAX;
      hi = 0;
    }
    return Status::Ok();
  };
  for (const GatherBlock& block : plan.blocks) {
    const size_t rank = block.shape.size();
    const uint64_t length = U(block.shape.back());
    uint64_t rows = 1;
    for (size_t d = 0; d + 1 < rank; ++d) rows *= U(block.shape[d]);
    const uint64_t* last = block.offsets.back().data();
    const auto [min_it, max_it] = std::minmax_element(last, last + length);
    std::vector<int64_t> index(rank - 1, 0);
    uint64_t base = 0;
    for (size_t d = 0; d + 1 < rank; ++d) base += block.offsets[d][0];
    for (uint64_t row = 0; row < rows; ++row) {
      lo = std::min(lo, base + *min_it);
      hi = std::max(hi, base + *max_it);
      for (uint64_t col = 0; col < length;) {
        const uint64_t n = std::min(length - col, chunk - filled);
        std::byte* out = buffer.data() + filled * Load::kOutItem;
        for (uint64_t j = 0; j < n; ++j) load(dev.data(), base + last[col + j], out + j * Load::kOutItem);
        filled += n;
        col += n;
        if (filled == chunk) MSP_RETURN_IF_ERROR(flush());
      }
      for (size_t d = rank - 1; d-- > 0;) {  // next row: the odometer over the outer dims
        base -= block.offsets[d][U(index[d])];
        if (++index[d] < block.shape[d]) {
          base += block.offsets[d][U(index[d])];
          break;
        }
        index[d] = 0;
        base += block.offsets[d][0];
      }
    }
  }
  return filled > 0 ? flush() : Status::Ok();
}

// The device order already is the host order: zero-copy windows (int4 widened through a buffer).
Status StreamDirect(const MappedFile& file, const TensorInfo& tensor, const ElementSink& sink, uint64_t window_bytes) {
  const uint64_t numel = tensor.storage_elements;
  const bool int4 = tensor.dtype == DType::kI4;
  const uint64_t bits = Info(tensor.dtype).bits;
  const uint64_t window = std::max<uint64_t>(2, window_bytes * 8 / bits) & ~uint64_t{1};  // even for int4
  std::vector<std::byte> widened;
  for (uint64_t first = 0; first < numel; first += window) {
    const uint64_t count = std::min(window, numel - first);
    const uint64_t begin = ByteSize(tensor.dtype, first);
    MSP_ASSIGN_OR_RETURN(MappedRegion region,
                         file.Map(tensor.data_offset + begin, ByteSize(tensor.dtype, first + count) - begin, true));
    if (!int4) {
      MSP_RETURN_IF_ERROR(sink(region.bytes()));
    } else {
      widened.resize(count);
      const WidenInt4 widen;
      for (uint64_t i = 0; i < count; ++i) widen(region.bytes().data(), i, &widened[i]);
      MSP_RETURN_IF_ERROR(sink(Bytes(widened.data(), count)));
    }
    MSP_RETURN_IF_ERROR(region.Intact());  // the sink's output is not committed after an error
  }
  return Status::Ok();
}

}  // namespace

Status StreamHostOrder(const MappedFile& file, const TensorInfo& tensor, const LayoutPlan& plan,
                       const ElementSink& sink, uint64_t window_bytes) {
  const uint64_t bytes = ByteSize(tensor.dtype, tensor.storage_elements);
  if (tensor.data_offset > file.size() || bytes > file.size() - tensor.data_offset) {
    return Status::InvalidInput(tensor.path, fmt::format("{} bytes at offset {} are past the end of the file ({} "
                                                         "bytes)", bytes, tensor.data_offset, file.size()));
  }
  if (!plan.converted) return StreamDirect(file, tensor, sink, window_bytes);
  // The whole slot is mapped (address space only); GatherBlocks keeps what is resident bounded.
  MSP_ASSIGN_OR_RETURN(MappedRegion region, file.Map(tensor.data_offset, bytes));
  const Bytes dev = region.bytes();
  const uint64_t chunk = std::min<uint64_t>(window_bytes, uint64_t{1} << 20);
  const uint64_t drop = std::max<uint64_t>(chunk, window_bytes / 4);
  auto gather = [&]() -> Status {
    switch (tensor.dtype == DType::kI4 ? 0 : Info(tensor.dtype).bits / 8) {
      case 0: return GatherBlocks<WidenInt4>(dev, plan, sink, chunk, drop);
      case 1: return GatherBlocks<CopyItem<1>>(dev, plan, sink, chunk, drop);
      case 2: return GatherBlocks<CopyItem<2>>(dev, plan, sink, chunk, drop);
      case 4: return GatherBlocks<CopyItem<4>>(dev, plan, sink, chunk, drop);
      case 8: return GatherBlocks<CopyItem<8>>(dev, plan, sink, chunk, drop);
      case 16: return GatherBlocks<CopyItem<16>>(dev, plan, sink, chunk, drop);
      default: return Status::Internal(tensor.path, fmt::format("no gather for {}", Name(tensor.dtype)));
    }
  };
  MSP_RETURN_IF_ERROR(gather());
  return region.Intact();
}

}  // namespace msprobe
