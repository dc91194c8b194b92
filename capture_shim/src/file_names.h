// Names of captured files (docs/capture.md A8.3, docs/kernel_dump.md §4.1/§4.3/§4.4):
// {op_type}.{op_name}.{task_id}.{stream_id}.{timestamp16}, op_name = {op_type}_{seq}.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace msprobe::capture {

inline constexpr size_t kMaxFileName = 255;

// CANN's rule: '.', '/', '\' and ' ' become '_'.
std::string SanitizeName(std::string_view name);

// The op name recorded in the header for the seq-th op call of type `op_type`.
std::string OpName(std::string_view op_type, uint64_t seq);

std::string BinFileName(std::string_view op_type, std::string_view op_name, uint64_t task_id, uint32_t stream_id,
                        uint64_t time_us);

// A 32-hex-digit stand-in for a name longer than kMaxFileName (the original goes to mapping.csv).
std::string HashedFileName(std::string_view name);

// "YYYYMMDDHHMMSS" in local time.
std::string TimestampDir();

}  // namespace msprobe::capture
