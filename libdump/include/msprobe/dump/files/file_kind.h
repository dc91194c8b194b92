// What a file is, told by its first bytes (and its name's extension only to name it): for the
// message when a file is not the kind a program expected ("x.pt: a torch .pt file (zip archive), not a
// kernel .bin dump"), rather than the error of a reader that took it for its own kind.
#pragma once

#include <string>

#include "msprobe/dump/io/byte_cursor.h"

namespace msprobe {

enum class FileKind : uint8_t {
  kEmpty,
  kNpy,     // "\x93NUMPY"
  kZip,     // "PK\x03\x04": torch.save since 1.6, also xlsx workbooks
  kPickle,  // PROTO 2: the legacy torch.save format
  kText,    // UTF-8 without NUL bytes in its first 4 KB (and not an ATB .bin's "$Version=" header)
  kOther,   // binary of no kind above: maybe a kernel .bin dump
};

// The kind of a file that starts with `head` (its first 4 KB or all of it, when shorter).
FileKind SniffFileKind(Bytes head);

// The kind named for a message: "an .npy file", "a torch .pt file (zip archive)", "a text file (csv)";
// `path`'s extension says which text or zip it is.
std::string FileKindName(FileKind kind, const std::string& path);

}  // namespace msprobe
