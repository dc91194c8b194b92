#include "msprobe/dump/files/tensor_file.h"

#include <fmt/format.h>

#include <algorithm>

#include "msprobe/dump/files/file_kind.h"
#include "msprobe/dump/formats/bin_reader.h"
#include "msprobe/dump/io/mapped_file.h"
#include "msprobe/dump/formats/npy_reader.h"
#include "msprobe/dump/formats/pt_reader.h"

namespace msprobe {

Result<TensorInfo> ReadTensorFile(const std::string& path) {
  MSP_ASSIGN_OR_RETURN(auto file, MappedFile::Open(path));
  MSP_ASSIGN_OR_RETURN(MappedRegion region, file->MapAll());  // virtual only: readers touch the header
  const FileKind kind = SniffFileKind(region.bytes());
  switch (kind) {
    case FileKind::kNpy: return ParseNpy(region.bytes(), path);
    // Zip archives (torch.save ≥ 1.6) and legacy pickles both go to the .pt reader, which explains
    // what it cannot read.
    case FileKind::kZip:
    case FileKind::kPickle: return ParsePt(region.bytes(), path);
    case FileKind::kEmpty: return Status::InvalidInput(path, "empty file, expected a .npy or .pt tensor");
    case FileKind::kText: return Status::InvalidInput(path, FileKindName(kind, path) + ", not a .npy or torch .pt file");
    case FileKind::kOther: break;
  }
  return Status::InvalidInput(path, "not a .npy or torch .pt file (unrecognised leading bytes)");
}

Result<std::vector<LabeledTensor>> ReadTensorsOfFile(const std::string& path) {
  std::vector<LabeledTensor> out;
  MSP_ASSIGN_OR_RETURN(auto file, MappedFile::Open(path));
  MSP_ASSIGN_OR_RETURN(MappedRegion region, file->MapAll());
  const FileKind kind = SniffFileKind(region.bytes());
  if (kind == FileKind::kText) {
    return Status::InvalidInput(path, FileKindName(kind, path) + ", not a tensor file (.npy, .pt or .bin)");
  }
  if (kind != FileKind::kOther) {
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
