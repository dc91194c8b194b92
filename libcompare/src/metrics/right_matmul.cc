#include "metrics/right_matmul_internal.h"

#include <fmt/format.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "msprobe/dump/files/tensor_file.h"

namespace msprobe::compare {
namespace {

using internal::LoadedTensor;
using internal::NumpyArray;
using internal::ScalarType;

std::string ShapeText(const std::vector<int64_t>& shape) { return fmt::format("[{}]", fmt::join(shape, ", ")); }

uint64_t Numel(const std::vector<int64_t>& shape) {
  uint64_t n = 1;
  for (int64_t d : shape) n *= static_cast<uint64_t>(d);
  return n;
}

std::string TypeName(ScalarType t) {
  switch (t.kind) {
    case ScalarType::kBool: return "bool";
    case ScalarType::kSigned: return fmt::format("int{}", t.bits);
    case ScalarType::kUnsigned: return fmt::format("uint{}", t.bits);
    case ScalarType::kFloat: return fmt::format("float{}", t.bits);
  }
  return "?";
}

// msprobe's _load_tensor_as_numpy: np.load for .npy, torch.load(...).numpy() for .pt/.pth (which
// fails for dtypes numpy has none of).
Result<NumpyArray> LoadCalibration(const std::string& path) {
  if (!path.ends_with(".npy") && !path.ends_with(".pt") && !path.ends_with(".pth")) {
    return Status::Unsupported(path, "a calibration tensor must be a .npy, .pt or .pth file");
  }
  MSP_ASSIGN_OR_RETURN(TensorInfo info, ReadTensorFile(path));
  if (Info(info.dtype).npy_descr.empty() || IsComplex(info.dtype)) {
    return Status::Unsupported(path, fmt::format("a {} calibration tensor cannot be multiplied", Name(info.dtype)));
  }
  if (info.Numel() > kRightMatmulMaxElements) {
    return Status::Unsupported(path, fmt::format("{} elements, more than the {} a calibration tensor may hold",
                                                 info.Numel(), kRightMatmulMaxElements));
  }
  NumpyArray array{internal::ScalarTypeOf(info.dtype), info.shape, {}};
  MSP_ASSIGN_OR_RETURN(LoadedTensor tensor, LoadedTensor::FromInfo(std::move(info)));
  MSP_ASSIGN_OR_RETURN(array.values, tensor.ReadValues(tensor.numel()));
  return array;
}

// out[r, j] = sum over k of value[r, k] * mat[k, j] in T, k from 0: numpy's loop and the reference
// BLAS's order. The j loop is innermost, so every element keeps that order however it is vectorized.
template <class T>
std::vector<double> Product(const NumpyArray& value, const NumpyArray& mat, uint64_t rows, uint64_t k, uint64_t m) {
  std::vector<T> v(value.values.begin(), value.values.end()), w(mat.values.begin(), mat.values.end());
  std::vector<double> out(rows * m);
  tbb::this_task_arena::isolate([&] {  // a waiting thread must not take another row's product (product_mutex)
    tbb::parallel_for(uint64_t{0}, rows, [&](uint64_t r) {
      std::vector<T> acc(m, T{0});
      for (uint64_t i = 0; i < k; ++i) {
        const T a = v[r * k + i];
        const T* row = w.data() + i * m;
        for (uint64_t j = 0; j < m; ++j) acc[j] = acc[j] + a * row[j];
      }
      for (uint64_t j = 0; j < m; ++j) out[r * m + j] = static_cast<double>(acc[j]);
    });
  });
  return out;
}

}  // namespace

namespace internal {

Status RightMultiply(const NumpyArray& mat, NumpyArray* value) {
  const std::string shapes = fmt::format("{} @ {}", ShapeText(value->shape), ShapeText(mat.shape));
  if (value->shape.empty() || mat.shape.empty()) return Status::InvalidInput(shapes, "matmul of a 0-d array");
  if (mat.shape.size() > 2) return Status::Unsupported(shapes, "a calibration tensor of more than 2 dimensions");
  const uint64_t k = static_cast<uint64_t>(value->shape.back());
  if (static_cast<uint64_t>(mat.shape[0]) != k) return Status::InvalidInput(shapes, "the shapes do not match");
  const uint64_t m = mat.shape.size() == 2 ? static_cast<uint64_t>(mat.shape[1]) : 1;
  std::vector<int64_t> shape(value->shape.begin(), value->shape.end() - 1);
  if (mat.shape.size() == 2) shape.push_back(static_cast<int64_t>(m));
  const uint64_t rows = Numel({value->shape.begin(), value->shape.end() - 1});
  if (value->values.size() + rows * m > kRightMatmulMaxElements) {
    return Status::Unsupported(shapes, fmt::format("the operand and product hold more than {} elements",
                                                   kRightMatmulMaxElements));
  }
  const ScalarType type = Promote(value->type, mat.type);
  if (type.kind != ScalarType::kFloat || type.bits < 32) {
    return Status::Unsupported(shapes, fmt::format("numpy multiplies in {}; only float32 and float64 products are made",
                                                   TypeName(type)));
  }
  value->values = type.bits == 32 ? Product<float>(*value, mat, rows, k, m) : Product<double>(*value, mat, rows, k, m);
  value->shape = std::move(shape);
  value->type = type;
  return Status::Ok();
}

Result<std::optional<LoadedTensor>> ApplyRightMatmul(const RightMatmul& rm, bool target, const std::string& data_name,
                                                     const LoadedTensor& tensor, bool squeeze, uint64_t zero_from) {
  const std::vector<const RightMatmul::Calibration*> calibrations = rm.Of(target, data_name);
  if (calibrations.empty()) return std::optional<LoadedTensor>();
  const auto side = target ? "target" : "golden";
  const DType dtype = tensor.info().dtype;
  if (IsComplex(dtype) || tensor.numel() > kRightMatmulMaxElements) {
    rm.NoteFailure(fmt::format("{} {}: a {} tensor of {} elements is not multiplied", side, data_name, Name(dtype),
                               tensor.numel()));
    return std::optional<LoadedTensor>();
  }
  const std::lock_guard<std::mutex> one_at_a_time(rm.product_mutex());
  NumpyArray value{ScalarTypeOf(dtype), tensor.CompareShape(squeeze), {}};
  MSP_ASSIGN_OR_RETURN(value.values, tensor.ReadValues(zero_from));
  bool multiplied = false;
  for (const RightMatmul::Calibration* c : calibrations) {
    Status status = c->array.ok() ? RightMultiply(*c->array, &value) : c->array.status();
    if (status.ok()) {
      multiplied = true;
    } else {
      rm.NoteFailure(fmt::format("{} {}: right_matmul by {}: {}", side, data_name, c->path, status.ToString()));
    }
  }
  if (!multiplied) return std::optional<LoadedTensor>();
  return std::optional<LoadedTensor>(
      LoadedTensor::FromValues(value.type.bits == 32 ? DType::kF32 : DType::kF64, value.shape, value.values));
}

}  // namespace internal

RightMatmul::RightMatmul() = default;
RightMatmul::RightMatmul(RightMatmul&& other) noexcept
    : calibrations_(std::move(other.calibrations_)), target_(std::move(other.target_)), golden_(std::move(other.golden_)) {}
RightMatmul& RightMatmul::operator=(RightMatmul&& other) noexcept {
  calibrations_ = std::move(other.calibrations_);
  target_ = std::move(other.target_);
  golden_ = std::move(other.golden_);
  return *this;
}
RightMatmul::~RightMatmul() = default;

RightMatmul RightMatmul::Load(const std::vector<RightMatmulMap>& maps, std::vector<std::string>* warnings) {
  RightMatmul rm;
  std::unordered_map<std::string, size_t> by_path;
  const auto index = [&](const std::unordered_map<std::string, std::string>& names) {
    std::unordered_map<std::string, size_t> out;
    for (const auto& [data_name, path] : names) {
      auto [at, inserted] = by_path.emplace(path, rm.calibrations_.size());
      if (inserted) rm.calibrations_.push_back(std::make_unique<Calibration>(Calibration{path}));
      out.emplace(data_name, at->second);
    }
    return out;
  };
  for (const RightMatmulMap& map : maps) {
    if (map.empty()) continue;  // msprobe skips an empty configuration
    rm.target_.push_back(index(map.target));
    rm.golden_.push_back(index(map.golden));
  }
  // Loaded in parallel, reported in the order they were named.
  tbb::parallel_for(size_t{0}, rm.calibrations_.size(),
                    [&](size_t i) { rm.calibrations_[i]->array = LoadCalibration(rm.calibrations_[i]->path); });
  for (const auto& c : rm.calibrations_) {
    if (!c->array.ok()) {
      warnings->push_back(fmt::format("right_matmul: {}; the tensors mapped to it are compared as dumped",
                                      c->array.status().ToString()));
    }
  }
  return rm;
}

std::vector<const RightMatmul::Calibration*> RightMatmul::Of(bool target, const std::string& data_name) const {
  std::vector<const Calibration*> out;
  for (const auto& map : target ? target_ : golden_) {
    if (const auto it = map.find(data_name); it != map.end()) out.push_back(calibrations_[it->second].get());
  }
  return out;
}

void RightMatmul::NoteFailure(const std::string& why) const {
  const std::lock_guard<std::mutex> lock(failures_mutex_);
  // Rows finish in any order: the smallest text is the one named, whatever the threads did.
  if (failures_++ == 0 || why < first_failure_) first_failure_ = why;
}

uint64_t RightMatmul::failures() const {
  const std::lock_guard<std::mutex> lock(failures_mutex_);
  return failures_;
}

std::string RightMatmul::first_failure() const {
  const std::lock_guard<std::mutex> lock(failures_mutex_);
  return first_failure_;
}

}  // namespace msprobe::compare
