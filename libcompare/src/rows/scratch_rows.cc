// msprobe's dirty-data cleaning of MoE outputs, as its compare does it (docs/compare.md §4.2 step 3):
// which entries, which kwarg, the valid length, which rows.
#include "msprobe/compare/rows/scratch_rows.h"

#include <fmt/format.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <type_traits>
#include <unordered_map>

#include "msprobe/dump/files/tensor_file.h"
#include "msprobe/dump/framework/dump_layout.h"
#include "msprobe/dump/tensor/element_types.h"
#include "msprobe/dump/tensor/tensor_source.h"

namespace msprobe::compare {
namespace {

// msprobe's built-in compare handlers (api_output_postprocess.yaml): an entry key containing the name
// takes its valid length from that kwarg. Both entries are looked at in this order.
struct ScratchApi {
  std::string_view name, kwarg;
};
constexpr std::array<ScratchApi, 2> kScratchApis = {{
    {"npu_dequant_swiglu_quant", "group_index"},
    {"npu_grouped_matmul", "group_list"},
}};

std::string_view StringOf(const JsonValue& v) { return {v.GetString(), v.GetStringLength()}; }

// parse_op_data on one kwarg value, as far as a file name goes: a tensor record gives its data_name, a
// {"type", "value"} pair its value (recursively); anything else is not a file name.
const JsonValue* FileNameOf(const JsonValue& v, int depth = 0) {
  if (v.IsString()) return &v;
  if (!v.IsObject() || depth > kMaxJsonDepth) return nullptr;
  const char* type = StringMember(v, "type");
  if (type != nullptr && std::string_view(type) == "torch.Tensor") {
    if (const JsonValue* data_name = Member(v, "data_name")) return data_name;
  }
  const JsonValue* value = Member(v, "value");
  if (v.MemberCount() == 2 && Member(v, "type") != nullptr && value != nullptr) return FileNameOf(*value, depth + 1);
  return nullptr;
}

// torch's sum of an integer or bool tensor: int64, wrapping around.
template <class T>
uint64_t SumWindow(const std::byte* bytes, uint64_t count) {
  uint64_t sum = 0;
  for (uint64_t i = 0; i < count; ++i) {
    T element;
    std::memcpy(&element, bytes + i * sizeof(T), sizeof(T));
    sum += static_cast<uint64_t>(static_cast<int64_t>(element));
  }
  return sum;
}

bool SummableDType(DType dtype) {
  switch (dtype) {
    case DType::kI8: case DType::kI16: case DType::kI32: case DType::kI64: case DType::kU8: case DType::kBool:
      return true;
    default:
      return false;
  }
}

}  // namespace

std::optional<ScratchEntry> ScratchEntryOf(std::string_view key, const JsonValue& entry) {
  const auto api = std::find_if(kScratchApis.begin(), kScratchApis.end(),
                                [&](const ScratchApi& a) { return key.find(a.name) != std::string_view::npos; });
  if (api == kScratchApis.end() || !entry.IsObject()) return std::nullopt;
  const JsonValue* kwargs = Member(entry, "input_kwargs");
  if (kwargs == nullptr || !kwargs->IsObject()) return std::nullopt;
  const JsonValue* group = Member(*kwargs, std::string(api->kwarg).c_str());
  const JsonValue* file = group != nullptr ? FileNameOf(*group) : nullptr;
  if (file == nullptr || !file->IsString() || !StringOf(*file).ends_with(".pt")) return std::nullopt;
  return ScratchEntry{std::string(key), std::string(StringOf(*file))};
}

Result<int64_t> GroupValidLength(const std::string& path) {
  MSP_ASSIGN_OR_RETURN(TensorInfo info, ReadTensorFile(path));
  if (!SummableDType(info.dtype)) {
    return Status::Unsupported(path, fmt::format("a group tensor of {} gives no valid length", Name(info.dtype)));
  }
  MSP_ASSIGN_OR_RETURN(TensorSource source, TensorSource::Open(info));
  uint64_t sum = 0;
  MSP_RETURN_IF_ERROR(source.ForEachWindow([&](uint64_t, uint64_t count, Bytes bytes) {
    VisitDType(info.dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_integral_v<T>) sum += SumWindow<T>(bytes.data(), count);
    });
  }));
  const auto length = static_cast<int64_t>(sum);
  if (length < 0) return Status::InvalidInput(path, fmt::format("valid length {} is negative", length));
  return length;
}

void MarkScratchRows(const std::vector<ScratchEntry>& entries, const std::string& target_json,
                     std::vector<ResultRow>* rows) {
  if (entries.empty()) return;
  const std::string dir = TensorDataDir(target_json);
  std::vector<int64_t> lengths(entries.size(), -1);
  tbb::parallel_for(size_t{0}, entries.size(), [&](size_t i) {
    const Result<std::string> path = ResolveDataName(dir, entries[i].group_data_name);
    if (!path.ok()) return;
    if (const Result<int64_t> length = GroupValidLength(*path); length.ok()) lengths[i] = *length;
  });
  std::unordered_map<std::string_view, int64_t> by_key;
  for (size_t i = 0; i < entries.size(); ++i) {
    if (lengths[i] >= 0) by_key.emplace(entries[i].key, lengths[i]);
  }
  if (by_key.empty()) return;
  for (ResultRow& row : *rows) {
    const auto it = by_key.find(row.api);
    if (it != by_key.end() && row.target_name.find("output") != std::string::npos) row.target_valid_rows = it->second;
  }
}

}  // namespace msprobe::compare
