// LoadedTensor: a tensor file opened for the metrics, read whole when small, streamed otherwise.
#include "metrics/loaded_tensor_internal.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "metrics/pair_kernel_internal.h"
#include "msprobe/dump/files/tensor_file.h"
#include "msprobe/dump/formats/npy_reader.h"
#include "msprobe/dump/formats/pt_reader.h"
#include "msprobe/dump/framework/dump_layout.h"
#include "msprobe/dump/tensor/element_types.h"

namespace msprobe::compare::internal {

std::vector<int64_t> Squeezed(const std::vector<int64_t>& shape) {
  std::vector<int64_t> out;
  for (int64_t d : shape) {
    if (d != 1) out.push_back(d);
  }
  return out;
}

namespace {

// Files up to this size are read whole with one read() instead of being mapped: with 4 KiB tensors
// the mmap/munmap calls (and their lock, shared by the threads) cost more than the metrics.
constexpr uint64_t kSmallFileBytes = 64 << 10;

// The whole file when it is a regular file of at most kSmallFileBytes; nullopt otherwise.
std::optional<std::vector<std::byte>> ReadSmallFile(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);  // a FIFO must not wait for a writer
  if (fd < 0) return std::nullopt;
  std::optional<std::vector<std::byte>> bytes;
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && static_cast<uint64_t>(st.st_size) <= kSmallFileBytes) {
    std::vector<std::byte> buffer(static_cast<size_t>(st.st_size));
    size_t done = 0;
    while (done < buffer.size()) {
      const ssize_t got = ::pread(fd, buffer.data() + done, buffer.size() - done, static_cast<off_t>(done));
      if (got <= 0) break;
      done += static_cast<size_t>(got);
    }
    if (done == buffer.size()) bytes = std::move(buffer);
  }
  ::close(fd);
  return bytes;
}

}  // namespace

Result<LoadedTensor> LoadedTensor::Load(const std::string& dir, const std::string& data_name) {
  MSP_ASSIGN_OR_RETURN(std::string path, ResolveDataName(dir, data_name));
  LoadedTensor t;
  std::optional<std::vector<std::byte>> small = ReadSmallFile(path);
  if (small) {
    // ReadTensorFile's dispatch on the leading bytes, over the bytes already read.
    const Bytes bytes(small->data(), small->size());
    const std::string_view head = AsChars(bytes.first(std::min<size_t>(bytes.size(), 8)));
    if (head.starts_with("\x93NUMPY")) {
      MSP_ASSIGN_OR_RETURN(t.info_, ParseNpy(bytes, path));
    } else if (head.starts_with("PK\x03\x04") || head.starts_with("\x80\x02")) {
      MSP_ASSIGN_OR_RETURN(t.info_, ParsePt(bytes, path));
    } else {
      MSP_ASSIGN_OR_RETURN(t.info_, ReadTensorFile(path));  // fails, explaining why
    }
  } else {
    MSP_ASSIGN_OR_RETURN(t.info_, ReadTensorFile(path));
  }
  if (!KernelSupports(t.info_.dtype)) return Status::Unsupported(path, "int4 tensors cannot be compared");
  t.numel_ = t.info_.Numel();
  const uint64_t item = Info(t.info_.dtype).bits / 8;
  const uint64_t storage_bytes = ByteSize(t.info_.dtype, t.info_.storage_elements);
  if (small && t.info_.IsContiguous() && (!t.info_.big_endian || item == 1) &&
      t.info_.data_offset <= small->size() && storage_bytes <= small->size() - t.info_.data_offset) {
    // The readers checked that the elements lie inside the storage (ValidateExtent).
    t.file_ = std::move(*small);
    t.elements_ = Bytes(t.file_.data() + t.info_.data_offset + static_cast<uint64_t>(t.info_.storage_offset) * item,
                        t.numel_ * item);
    return t;
  }
  MSP_ASSIGN_OR_RETURN(TensorSource source, TensorSource::Open(t.info_));
  t.source_.emplace(std::move(source));
  return t;
}

Result<LoadedTensor> LoadedTensor::FromInfo(TensorInfo info) {
  if (!KernelSupports(info.dtype)) return Status::Unsupported(info.path, "int4 tensors cannot be compared");
  LoadedTensor t;
  t.info_ = std::move(info);
  t.numel_ = t.info_.Numel();
  MSP_ASSIGN_OR_RETURN(TensorSource source, TensorSource::Open(t.info_));
  t.source_.emplace(std::move(source));
  return t;
}


LoadedTensor LoadedTensor::FromValues(DType dtype, std::vector<int64_t> shape, const std::vector<double>& values) {
  LoadedTensor t;
  t.info_.dtype = dtype;
  t.info_.shape = std::move(shape);
  t.numel_ = values.size();
  t.keep_shape_ = true;
  const uint64_t item = Info(dtype).bits / 8;
  t.file_.resize(values.size() * item);
  for (size_t i = 0; i < values.size(); ++i) {
    if (dtype == DType::kF32) {
      const auto f = static_cast<float>(values[i]);
      std::memcpy(t.file_.data() + i * item, &f, sizeof f);
    } else {
      std::memcpy(t.file_.data() + i * item, &values[i], sizeof values[i]);
    }
  }
  t.elements_ = Bytes(t.file_.data(), t.file_.size());
  return t;
}

LoadedTensor LoadedTensor::FromBytes(DType dtype, std::vector<int64_t> shape, std::vector<std::byte> bytes) {
  LoadedTensor t;
  t.info_.dtype = dtype;
  t.info_.shape = std::move(shape);
  t.numel_ = t.info_.Numel();
  t.keep_shape_ = true;
  t.file_ = std::move(bytes);
  t.elements_ = Bytes(t.file_.data(), t.file_.size());
  return t;
}

Result<std::vector<std::byte>> LoadedTensor::ReadBytes() const {
  const uint64_t item = Info(info_.dtype).bits / 8;
  std::vector<std::byte> out(numel_ * item);
  ElementWindow window;
  for (uint64_t first = 0; first < numel_; first += kReadWindowElements) {
    const uint64_t count = std::min(kReadWindowElements, numel_ - first);
    Bytes bytes;
    MSP_RETURN_IF_ERROR(Read(first, count, &window, &bytes));
    std::memcpy(out.data() + first * item, bytes.data(), count * item);
    if (source_) MSP_RETURN_IF_ERROR(window.Intact());
  }
  return out;
}

std::vector<int64_t> LoadedTensor::CompareShape(bool squeeze) const {
  return squeeze && !keep_shape_ ? Squeezed(info_.shape) : info_.shape;
}

Result<std::vector<double>> LoadedTensor::ReadValues(uint64_t zero_from) const {
  std::vector<double> values(numel_, 0.0);
  ElementWindow window;
  for (uint64_t first = 0; first < std::min(numel_, zero_from); first += kReadWindowElements) {
    const uint64_t count = std::min({kReadWindowElements, numel_ - first, zero_from - first});
    Bytes bytes;
    MSP_RETURN_IF_ERROR(Read(first, count, &window, &bytes));
    VisitDType(info_.dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_same_v<T, Int4Pair> || std::is_same_v<T, Complex32> ||
                    std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>) {
        __builtin_unreachable();  // refused by the callers
      } else {
        for (uint64_t i = 0; i < count; ++i) {  // memcpy: a mapped window need not be aligned for T
          T element;
          std::memcpy(&element, bytes.data() + i * sizeof(T), sizeof(T));
          values[first + i] = ToDouble(element);
        }
      }
    });
    if (source_) MSP_RETURN_IF_ERROR(window.Intact());
  }
  return values;
}

}  // namespace msprobe::compare::internal
