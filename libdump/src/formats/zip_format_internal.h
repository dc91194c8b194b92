// The record signatures of the zip format (PKWARE APPNOTE 4.3), shared by the reader (zip_archive)
// and the xlsx writer's zip_stream_writer.
#pragma once

#include <cstddef>
#include <cstdint>

namespace msprobe::zip {

inline constexpr uint32_t kLocalHeaderSignature = 0x04034b50;
inline constexpr uint32_t kCentralHeaderSignature = 0x02014b50;
inline constexpr uint32_t kDataDescriptorSignature = 0x08074b50;
inline constexpr uint32_t kEndSignature = 0x06054b50;
inline constexpr uint32_t kZip64EndSignature = 0x06064b50;
inline constexpr uint32_t kZip64LocatorSignature = 0x07064b50;
inline constexpr uint16_t kZip64ExtraId = 0x0001;
inline constexpr uint16_t kMethodStored = 0;
inline constexpr uint16_t kMethodDeflate = 8;
inline constexpr size_t kLocalHeaderSize = 30;  // the fixed part, before name and extra field

}  // namespace msprobe::zip
