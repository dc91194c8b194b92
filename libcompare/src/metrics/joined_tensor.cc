#include "metrics/joined_tensor_internal.h"

#include <fmt/format.h>

#include <cstring>
#include <vector>

#include "msprobe/dump/text/python_format.h"

namespace msprobe::compare::internal {

bool ReadsJoined(ConsistentBackend backend, bool target, const std::string& data_name) {
  switch (backend) {
    case ConsistentBackend::kFsdp:
      return target && (data_name.find(".q_proj.") != std::string::npos || data_name.find(".gate_proj.") != std::string::npos);
    case ConsistentBackend::kMegatron: return !target && data_name.find(".gate_up_proj.") != std::string::npos;
    case ConsistentBackend::kNone: break;
  }
  return false;
}

namespace {

// np.concatenate of C-order arrays along `axis`: for each index before the axis, each part's block.
Result<LoadedTensor> Concatenate(const std::vector<LoadedTensor>& parts, size_t axis, const std::string& source) {
  const DType dtype = parts.front().info().dtype;
  std::vector<int64_t> shape = parts.front().CompareShape(true);
  if (shape.size() <= axis) return Status::InvalidInput(source, fmt::format("cannot concatenate {}-d tensors along axis {}", shape.size(), axis));
  uint64_t total = 0;
  shape[axis] = 0;
  for (const LoadedTensor& part : parts) {
    std::vector<int64_t> s = part.CompareShape(true);
    if (part.info().dtype != dtype || s.size() != shape.size()) {
      return Status::Unsupported(source, "the joined tensors differ in dtype or rank");
    }
    shape[axis] += s[axis];
    s[axis] = shape[axis];
    if (s != shape) return Status::InvalidInput(source, "the joined tensors differ in a dimension other than the joined one");
    total += part.numel();
  }
  if (total > kJoinedTensorMaxElements) {
    return Status::Unsupported(source, fmt::format("the joined tensors hold more than {} elements", kJoinedTensorMaxElements));
  }
  uint64_t outer = 1;
  for (size_t d = 0; d < axis; ++d) outer *= static_cast<uint64_t>(shape[d]);
  const uint64_t item = Info(dtype).bits / 8;
  std::vector<std::byte> out(total * item);
  std::byte* at = out.data();
  std::vector<std::vector<std::byte>> bytes;
  for (const LoadedTensor& part : parts) {
    MSP_ASSIGN_OR_RETURN(std::vector<std::byte> b, part.ReadBytes());
    bytes.push_back(std::move(b));
  }
  for (uint64_t o = 0; o < outer; ++o) {
    for (const std::vector<std::byte>& b : bytes) {
      const uint64_t block = b.size() / outer;
      std::memcpy(at, b.data() + o * block, block);
      at += block;
    }
  }
  return LoadedTensor::FromBytes(dtype, std::move(shape), std::move(out));
}

}  // namespace

Result<LoadedTensor> LoadJoined(const std::string& dir, const std::string& data_name) {
  const std::vector<std::string_view> names = PythonSplit(data_name, ';');
  if (data_name.find(".input.") != std::string::npos) return LoadedTensor::Load(dir, std::string(names.front()));
  std::vector<LoadedTensor> parts;
  for (std::string_view name : names) {
    MSP_ASSIGN_OR_RETURN(LoadedTensor part, LoadedTensor::Load(dir, std::string(name)));
    parts.push_back(std::move(part));
  }
  return Concatenate(parts, data_name.find(".parameters.") != std::string::npos ? 0 : 1,
                     dir + "/" + std::string(names.front()));
}

}  // namespace msprobe::compare::internal
