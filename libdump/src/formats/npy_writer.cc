#include "msprobe/dump/formats/npy_writer.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <bit>
#include <limits>

#include "formats/npy_header_internal.h"
#include "msprobe/dump/text/python_format.h"

namespace msprobe {
namespace {

using namespace npy_internal;  // NOLINT: the format's constants

std::string ShapeText(const std::vector<int64_t>& shape) { return fmt::format("[{}]", fmt::join(shape, ", ")); }

// numpy.lib.format._write_array_header: the sorted-key dict, spare spaces for the growth axis, then
// _wrap_header's padding to kArrayAlign with a final '\n' (a full kArrayAlign spaces when the text
// already ends on the boundary, as numpy does). Version 2.0 only when 1.0's 2-byte length overflows.
std::string BuildHeader(std::string_view descr, const std::vector<int64_t>& shape) {
  std::string dict =
      fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}", descr, PythonIntTuple(shape));
  if (!shape.empty()) {
    const size_t digits = std::to_string(shape[0]).size();  // ≤ 19, int64 is non-negative here
    dict.append(kGrowthAxisMaxDigits - digits, ' ');
  }
  const uint64_t text_length = dict.size() + 1;  // + '\n'
  uint64_t preamble = kPreambleV1;
  uint64_t pad = kArrayAlign - (preamble + text_length) % kArrayAlign;
  if (text_length + pad > std::numeric_limits<uint16_t>::max()) {
    preamble = kPreambleV2;
    pad = kArrayAlign - (preamble + text_length) % kArrayAlign;
  }
  const uint64_t header_length = text_length + pad;
  std::string out(kMagic);
  out += static_cast<char>(preamble == kPreambleV1 ? 1 : 2);
  out += '\0';
  const int length_bytes = preamble == kPreambleV1 ? 2 : 4;
  for (int i = 0; i < length_bytes; ++i) out += static_cast<char>((header_length >> (8 * i)) & 0xff);
  out += dict;
  out.append(pad, ' ');
  out += '\n';
  return out;
}

// The descr for native-order elements: numpy writes '<' on little-endian hosts.
std::string NativeDescr(DType dtype) {
  std::string descr(Info(dtype).npy_descr);
  if (std::endian::native == std::endian::big && descr[0] == '<') descr[0] = '>';
  return descr;
}

}  // namespace

Result<NpyWriter> NpyWriter::Create(const std::string& path, DType dtype, const std::vector<int64_t>& shape) {
  if (Info(dtype).npy_descr.empty()) {
    return Status::Unsupported(path, fmt::format("{} has no numpy descr; convert it before writing .npy", Name(dtype)));
  }
  if (shape.size() > kMaxDims) {
    return Status::InvalidInput(path, fmt::format("shape has {} dims, at most {} can be written", shape.size(), kMaxDims));
  }
  constexpr uint64_t kLimit = uint64_t{1} << 62;
  uint64_t numel = 1;
  bool has_zero = false;
  for (int64_t d : shape) {
    if (d < 0) return Status::InvalidInput(path, fmt::format("negative dimension in shape {}", ShapeText(shape)));
    if (d == 0) {
      has_zero = true;
    } else if (numel > kLimit / static_cast<uint64_t>(d)) {
      return Status::InvalidInput(path, fmt::format("shape {} has too many elements", ShapeText(shape)));
    } else {
      numel *= static_cast<uint64_t>(d);
    }
  }
  if (has_zero) numel = 0;
  MSP_ASSIGN_OR_RETURN(AtomicFile file, AtomicFile::Create(path));
  MSP_RETURN_IF_ERROR(file.Write(BuildHeader(NativeDescr(dtype), shape)));
  return NpyWriter(std::move(file), dtype, shape, numel);
}

Status NpyWriter::Append(Bytes elements) {
  if (!file_) return Status::Internal("", "NpyWriter::Append after Finish");
  const uint64_t item_size = Info(dtype_).bits / 8;
  const std::string& path = file_->path();
  if (elements.size() % item_size != 0) {
    return Status::InvalidInput(path, fmt::format("appended {} bytes, not a whole number of {}-byte {} elements",
                                                  elements.size(), item_size, Name(dtype_)));
  }
  const uint64_t count = elements.size() / item_size;
  if (count > numel_ - appended_) {
    return Status::InvalidInput(path, fmt::format("appended {} elements after {}, shape {} has {}", count, appended_,
                                                  ShapeText(shape_), numel_));
  }
  MSP_RETURN_IF_ERROR(file_->Write(elements));
  appended_ += count;
  return Status::Ok();
}

Status NpyWriter::Finish() {
  if (!file_) return Status::Internal("", "NpyWriter::Finish called twice");
  if (appended_ != numel_) {
    const std::string path = file_->path();
    file_.reset();  // destroyed uncommitted: the temporary file is removed
    return Status::InvalidInput(path, fmt::format("got {} of the {} elements of shape {}; file not written",
                                                  appended_, numel_, ShapeText(shape_)));
  }
  const Status committed = file_->Commit();
  file_.reset();
  return committed;
}

Status WriteNpy(const std::string& path, DType dtype, const std::vector<int64_t>& shape, Bytes elements) {
  MSP_ASSIGN_OR_RETURN(NpyWriter writer, NpyWriter::Create(path, dtype, shape));
  MSP_RETURN_IF_ERROR(writer.Append(elements));
  return writer.Finish();
}

}  // namespace msprobe
