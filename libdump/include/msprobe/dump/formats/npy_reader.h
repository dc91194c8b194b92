// Reads the header of a numpy .npy file (format versions 1.0, 2.0 and 3.0) and describes the array it
// holds as a TensorInfo; TensorSource then streams the elements (docs/formats.md §6.5).
#pragma once

#include <string>

#include "msprobe/dump/io/byte_cursor.h"
#include "msprobe/dump/util/status.h"
#include "msprobe/dump/tensor/tensor.h"

namespace msprobe {

// Parses the .npy file whose bytes are `file` (the whole file; only the header is read). `source`
// names the file in messages and becomes info.path. On success the TensorInfo has data_offset just
// past the header, storage_elements = numel, Fortran strides when 'fortran_order' is True, and
// big_endian for '>' descrs; the data is known to fit in `file` (ValidateExtent has passed).
//
// Errors: a bad magic, header length, header dict (a Python literal with the keys 'descr',
// 'fortran_order' and 'shape'), a negative or overflowing shape, or data shorter than the shape needs
// are InvalidInput. A version other than 1.0/2.0/3.0 and descrs that are not numeric or bool ('<U3',
// '|O', '<M8[ns]', structured lists) are Unsupported, naming the descr.
Result<TensorInfo> ParseNpy(Bytes file, const std::string& source);

// Maps the file at `path` and parses it with ParseNpy.
Result<TensorInfo> ReadNpyFile(const std::string& path);

}  // namespace msprobe
