#include "msprobe/dump/tensor_file.h"

#include "msprobe/dump/mapped_file.h"
#include "msprobe/dump/npy_reader.h"
#include "msprobe/dump/pt_reader.h"

namespace msprobe {

Result<TensorInfo> ReadTensorFile(const std::string& path) {
  MSP_ASSIGN_OR_RETURN(auto file, MappedFile::Open(path));
  MSP_ASSIGN_OR_RETURN(MappedRegion region, file->MapAll());  // virtual only: readers touch the header
  const std::string_view head = AsChars(region.bytes().first(std::min<size_t>(region.bytes().size(), 8)));
  if (head.starts_with("\x93NUMPY")) return ParseNpy(region.bytes(), path);
  // Zip archives (torch.save ≥ 1.6) and legacy pickles (starting with PROTO 2) both go to the .pt
  // reader, which explains what it cannot read.
  if (head.starts_with("PK\x03\x04") || head.starts_with("\x80\x02")) return ParsePt(region.bytes(), path);
  if (region.bytes().empty()) return Status::InvalidInput(path, "empty file, expected a .npy or .pt tensor");
  return Status::InvalidInput(path, "not a .npy or torch .pt file (unrecognised leading bytes)");
}

}  // namespace msprobe
