// Reads one tensor saved by torch.save (zip format, torch ≥ 1.6) without Python: the zip's central
// directory, data.pkl through the pickle machine, and the storage member's place in the file
// (docs/formats.md §6.1–6.4).
#pragma once

#include <string>

#include "msprobe/dump/io/byte_cursor.h"
#include "msprobe/dump/util/status.h"
#include "msprobe/dump/tensor/tensor.h"

namespace msprobe {

// Parses a torch.save zip held in `file` (whole file bytes). Returns the TensorInfo with path = source,
// data_offset = the file offset of member data/{key}, storage_elements from the member size / itemsize
// (cross-checked against the persistent id numel; v3 UntypedStorage numel is bytes), storage_offset,
// shape, strides, requires_grad, big_endian from the `byteorder` member (absent → little). Accepts
// _rebuild_tensor_v2 (6 or 7 args, the 7th a metadata dict to ignore) and _rebuild_tensor_v3 (dtype
// GLOBAL e.g. `torch float8_e4m3fn`), backward_hooks an empty OrderedDict; the folder prefix is taken
// from the first entry ("<name>/data.pkl", also "archive/"). Calls ValidateExtent.
// Errors: the legacy non-zip format, anything but a single plain tensor (dict, list, Parameter,
// quantized storage, any other GLOBAL) and compressed members → Unsupported; a bad zip, a bad
// pickle, a missing storage member or a storage too small for the view → InvalidInput.
Result<TensorInfo> ParsePt(Bytes file, const std::string& source);

// MappedFile + ParsePt.
Result<TensorInfo> ReadPtFile(const std::string& path);

}  // namespace msprobe
