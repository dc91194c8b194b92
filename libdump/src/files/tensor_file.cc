#include "msprobe/dump/files/tensor_file.h"

#include <fmt/format.h>

#include <algorithm>

#include "msprobe/dump/formats/bin_reader.h"
#include "msprobe/dump/io/mapped_file.h"
#include "msprobe/dump/formats/npy_reader.h"
#include "msprobe/dump/formats/pt_reader.h"

namespace msprobe {

namespace {

enum class Kind { kNpy, kPt, kOther };

Kind KindOf(Bytes file) {
  const std::string_view head = AsChars(file.first(std::min<size_t>(file.size(), 8)));
  if (head.starts_with("\x93NUMPY")) return Kind::kNpy;
  // Zip archives (torch.save ≥ 1.6) and legacy pickles (starting with PROTO 2) both go to the .pt
  // reader, which explains what it cannot read.
  if (head.starts_with("PK\x03\x04") || head.starts_with("\x80\x02")) return Kind::kPt;
  return Kind::kOther;
}

}  // namespace

Result<TensorInfo> ReadTensorFile(const std::string& path) {
  MSP_ASSIGN_OR_RETURN(auto file, MappedFile::Open(path));
  MSP_ASSIGN_OR_RETURN(MappedRegion region, file->MapAll());  // virtual only: readers touch the header
  switch (KindOf(region.bytes())) {
    case Kind::kNpy: return ParseNpy(region.bytes(), path);
    case Kind::kPt: return ParsePt(region.bytes(), path);
    case Kind::kOther: break;
  }
  if (region.bytes().empty()) return Status::InvalidInput(path, "empty file, expected a .npy or .pt tensor");
  return Status::InvalidInput(path, "not a .npy or torch .pt file (unrecognised leading bytes)");
}

Result<std::vector<LabeledTensor>> ReadTensorsOfFile(const std::string& path) {
  std::vector<LabeledTensor> out;
  MSP_ASSIGN_OR_RETURN(auto file, MappedFile::Open(path));
  MSP_ASSIGN_OR_RETURN(MappedRegion region, file->MapAll());
  if (region.bytes().empty() || KindOf(region.bytes()) != Kind::kOther) {
    MSP_ASSIGN_OR_RETURN(TensorInfo info, ReadTensorFile(path));
    out.push_back({path, std::move(info)});
    return out;
  }
  MSP_ASSIGN_OR_RETURN(BinFile bin, ParseBin(region.bytes(), path));
  for (BinSlot& slot : bin.slots) {
    if (!slot.dtype) continue;
    out.push_back({fmt::format("{}:{}.{}", path, SlotKindName(slot.kind), slot.index), std::move(slot.tensor)});
  }
  return out;
}

}  // namespace msprobe
