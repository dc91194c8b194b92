#include "msprobe/dump/kernel/kernel_dump_name.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <vector>

#include "formats/dump_proto_enums_internal.h"

namespace msprobe {
namespace {

constexpr int kProtoDTypeIds = 64;  // beyond the last OutputDataType (docs/kernel_dump.md §1.3)

std::optional<uint64_t> ParseDecimal(std::string_view s) {
  uint64_t v = 0;
  if (s.empty() || s.size() > 20) return std::nullopt;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

Status Bad(std::string_view name, const std::string& what) {
  return Status::InvalidInput(std::string(name), "not a kernel dump tensor name: " + what);
}

}  // namespace

std::optional<DType> KernelDumpLabelDType(std::string_view label) {
  if (std::optional<DType> t = FromName(label)) return t;
  for (int id = 0; id < kProtoDTypeIds; ++id) {
    if (ProtoDTypeName(id) == label) return FromProtoId(id);
  }
  return std::nullopt;
}

Result<KernelDumpName> ParseKernelDumpName(std::string_view name) {
  if (name.size() > kMaxKernelDumpName) {
    return Bad(name.substr(0, 64), "name has " + std::to_string(name.size()) + " bytes, more than " + std::to_string(kMaxKernelDumpName));
  }
  std::vector<std::string_view> fields;
  for (size_t begin = 0;;) {
    const size_t dot = name.find('.', begin);
    fields.push_back(name.substr(begin, dot == std::string_view::npos ? std::string_view::npos : dot - begin));
    if (dot == std::string_view::npos) break;
    begin = dot + 1;
  }
  KernelDumpName out;
  out.npy = fields.back() == "npy";
  if (out.npy) fields.pop_back();
  // The io token: the first "input"/"output" after the five leading fields.
  size_t io = 5;
  while (io < fields.size() && fields[io] != "input" && fields[io] != "output") ++io;
  if (fields.size() < 7 || io + 1 >= fields.size()) return Bad(name, "no input/output field followed by a slot");
  for (size_t i = 0; i < 5; ++i) {
    if (fields[i].empty()) return Bad(name, "field " + std::to_string(i + 1) + " is empty");
  }
  out.op_type = fields[0];
  out.op_name = fields[1];
  const std::optional<uint64_t> task = ParseDecimal(fields[2]), stream = ParseDecimal(fields[3]);
  const std::optional<uint64_t> timestamp = ParseDecimal(fields[4]);
  if (!task || !stream || !timestamp) return Bad(name, "task id, stream id and timestamp must be decimal numbers");
  for (size_t i = 5; i < io; ++i) {
    if (!ParseDecimal(fields[i])) return Bad(name, "field " + std::to_string(i + 1) + " is neither a number nor input/output");
  }
  out.task_id = *task;
  out.stream_id = *stream;
  out.timestamp = *timestamp;
  out.is_input = fields[io] == "input";
  const std::optional<uint64_t> slot = ParseDecimal(fields[io + 1]);
  if (!slot || *slot > UINT32_MAX) return Bad(name, "slot '" + std::string(fields[io + 1]) + "' is not a number");
  out.slot = static_cast<uint32_t>(*slot);
  const size_t tail = fields.size() - (io + 2);
  if (tail > 2) return Bad(name, std::to_string(tail) + " fields after the slot, at most format and dtype");
  if (tail >= 1) out.format = fields[io + 2];
  if (tail == 2) out.dtype_label = fields[io + 3];
  if (!out.dtype_label.empty()) out.dtype = KernelDumpLabelDType(out.dtype_label);
  if (!out.npy && !out.dtype) {
    return Bad(name, "a raw file (no .npy) needs a known dtype as its last field");
  }
  return out;
}

bool IsKernelBinDumpName(std::string_view name) {
  if (std::count(name.begin(), name.end(), '.') < 4) return false;
  const std::string_view last = name.substr(name.rfind('.') + 1);
  return !last.empty() && std::all_of(last.begin(), last.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string ConvertedSlotName(std::string_view bin_name, const BinSlot& slot, std::string_view format) {
  return fmt::format("{}.{}.{}.{}.{}.npy", bin_name, SlotKindName(slot.kind), slot.index, format,
                     ProtoDTypeName(slot.proto_dtype));
}

std::string ConvertedSlotPtName(std::string_view bin_name, const BinSlot& slot) {
  return fmt::format("{}.{}.{}.pt", bin_name, SlotKindName(slot.kind), slot.index);
}

std::string HashedKernelDumpName(std::string_view name, std::string_view extension) {
  // Two 64-bit FNV-1a hashes with different offset bases: 128 bits, ample for names within one dir.
  uint64_t a = 0xcbf29ce484222325ull, b = 0x84222325cbf29ce4ull;
  for (char ch : name) {
    a = (a ^ static_cast<uint8_t>(ch)) * 0x100000001b3ull;
    b = (b ^ static_cast<uint8_t>(ch)) * 0x100000001b3ull;
  }
  return fmt::format("{:016x}{:016x}{}", a, b, extension);
}

}  // namespace msprobe
