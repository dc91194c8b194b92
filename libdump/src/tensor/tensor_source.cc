#include "msprobe/dump/tensor/tensor_source.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace msprobe {
namespace {

// Reverses each `unit`-byte group in place (complex values swap their two halves separately).
void SwapBytes(std::byte* data, uint64_t bytes, size_t unit) {
  if (unit <= 1) return;
  for (uint64_t i = 0; i + unit <= bytes; i += unit) std::reverse(data + i, data + i + unit);
}

}  // namespace

TensorSource::TensorSource(TensorInfo info, std::shared_ptr<const MappedFile> file)
    : info_(std::move(info)), file_(std::move(file)) {
  strides_ = info_.strides.empty() ? ContiguousStrides(info_.shape) : info_.strides;
  numel_ = info_.Numel();
  direct_ = info_.IsContiguous() && (!info_.big_endian || Info(info_.dtype).bits <= 8);
}

Result<TensorSource> TensorSource::Open(const TensorInfo& info) {
  MSP_ASSIGN_OR_RETURN(auto file, MappedFile::Open(info.path));
  return Open(info, std::move(file));
}

Result<TensorSource> TensorSource::Open(const TensorInfo& info, std::shared_ptr<const MappedFile> file) {
  const uint64_t storage_bytes = ByteSize(info.dtype, info.storage_elements);
  if (info.data_offset > file->size() || storage_bytes > file->size() - info.data_offset) {
    return Status::InvalidInput(info.path, fmt::format("storage of {} bytes at offset {} is past the end of the file ({} bytes)",
                                                       storage_bytes, info.data_offset, file->size()));
  }
  TensorSource source(info, std::move(file));
  if (!source.direct_) {
    if (info.dtype == DType::kI4) return Status::Unsupported(info.path, "strided int4 tensors are not supported");
    MSP_ASSIGN_OR_RETURN(MappedRegion region, source.file_->Map(info.data_offset, storage_bytes));
    source.storage_ = std::make_shared<const MappedRegion>(std::move(region));
  }
  return source;
}

Status TensorSource::Read(uint64_t first, uint64_t count, ElementWindow* out) const {
  if (!direct_) return Gather(first, count, out);
  const uint64_t begin = ByteSize(info_.dtype, static_cast<uint64_t>(info_.storage_offset) + first);
  const uint64_t end = ByteSize(info_.dtype, static_cast<uint64_t>(info_.storage_offset) + first + count);
  // Not populated: the read faults the window in a folio or 16 pages at a time, which costs less system
  // time than MAP_POPULATE's page-by-page walk (docs/compare.md §6.3).
  MSP_ASSIGN_OR_RETURN(out->region_, file_->Map(info_.data_offset + begin, end - begin));
  out->gathered_from_ = nullptr;
  out->bytes_ = out->region_.bytes();
  return Status::Ok();
}

Status TensorSource::Gather(uint64_t first, uint64_t count, ElementWindow* out) const {
  const size_t item = Info(info_.dtype).bits / 8;
  out->buffer_.resize(count * item);
  out->region_ = MappedRegion();
  out->gathered_from_ = storage_.get();
  const std::byte* storage = storage_->bytes().data();
  std::byte* dst = out->buffer_.data();
  // Multi-index of `first`, then an odometer over the C order.
  const size_t ndim = info_.shape.size();
  std::vector<int64_t> index(ndim);
  uint64_t rest = first;
  for (size_t d = ndim; d-- > 0;) {
    index[d] = static_cast<int64_t>(rest % static_cast<uint64_t>(info_.shape[d]));
    rest /= static_cast<uint64_t>(info_.shape[d]);
  }
  int64_t offset = info_.storage_offset;
  for (size_t d = 0; d < ndim; ++d) offset += index[d] * strides_[d];
  for (uint64_t i = 0; i < count; ++i) {
    std::memcpy(dst + i * item, storage + static_cast<uint64_t>(offset) * item, item);
    for (size_t d = ndim; d-- > 0;) {  // advance the odometer
      offset += strides_[d];
      if (++index[d] < info_.shape[d]) break;
      offset -= strides_[d] * index[d];
      index[d] = 0;
    }
  }
  if (info_.big_endian) SwapBytes(dst, count * item, IsComplex(info_.dtype) ? item / 2 : item);
  out->bytes_ = Bytes(dst, count * item);
  return Status::Ok();
}

}  // namespace msprobe
