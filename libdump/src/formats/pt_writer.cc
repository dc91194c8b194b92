#include "msprobe/dump/formats/pt_writer.h"

#include <fcntl.h>
#include <minizip/ioapi.h>
#include <minizip/zip.h>
#include <sys/random.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "io/pending_files_internal.h"

namespace msprobe {
namespace {

constexpr uint64_t kAlignment = 64;        // torch >= 1.13 aligns every member's data to 64 bytes
constexpr uint64_t kLocalHeaderBytes = 30;  // fixed part of a zip local file header
constexpr uint64_t kZip64LocalExtra = 20;   // minizip adds it to a local header opened with zip64 = 1
constexpr uint64_t kMinizipChunk = 1u << 30;

std::string RandomSuffix() {
  uint64_t bits = 0;
  if (::getrandom(&bits, sizeof bits, GRND_NONBLOCK) != static_cast<ssize_t>(sizeof bits)) {
    bits = static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  }
  return fmt::format("{:016x}", bits);
}

// ---- pickle, protocol 2, as torch.save's pickler writes it ----

// Python's pickler memoizes every string, global, non-empty tuple and reduce result as it writes
// it (BINPUT n); torch's data.pkl carries those memo entries, so ours does too, to be byte-identical.
class Pickler {
 public:
  std::string& bytes() { return out_; }

  void Int(uint64_t v) {
    if (v < 0x100) {
      out_ += 'K';
      out_ += static_cast<char>(v);
    } else if (v < 0x10000) {
      out_ += 'M';
      Le(v, 2);
    } else if (v < 0x80000000ull) {
      out_ += 'J';
      Le(v, 4);
    } else {  // LONG1: two's complement, little-endian, a zero byte added when the top bit is set
      std::string digits;
      for (uint64_t x = v; x != 0; x >>= 8) digits += static_cast<char>(x & 0xff);
      if (static_cast<uint8_t>(digits.back()) & 0x80) digits += '\0';
      out_ += static_cast<char>(0x8a);
      out_ += static_cast<char>(digits.size());
      out_ += digits;
    }
  }
  void Unicode(std::string_view s) {
    out_ += 'X';
    Le(s.size(), 4);
    out_ += s;
    Memoize();
  }
  void Global(std::string_view module, std::string_view name) {
    out_ += 'c';
    out_ += module;
    out_ += '\n';
    out_ += name;
    out_ += '\n';
    Memoize();
  }
  void IntTuple(const std::vector<int64_t>& values) {
    if (values.empty()) {
      out_ += ')';
      return;
    }
    if (values.size() > 3) out_ += '(';
    for (int64_t v : values) Int(static_cast<uint64_t>(v));
    static constexpr char kTupleN[] = {'\0', '\x85', '\x86', '\x87'};
    out_ += values.size() > 3 ? 't' : kTupleN[values.size()];
    Memoize();
  }
  // Ends a tuple opened with MARK ('(').
  void Tuple() {
    out_ += 't';
    Memoize();
  }
  void Reduce() {
    out_ += 'R';
    Memoize();
  }
  void Op(char op) { out_ += op; }

 private:
  void Le(uint64_t v, int n) {
    for (int i = 0; i < n; ++i) out_ += static_cast<char>((v >> (8 * i)) & 0xff);
  }
  void Memoize() {
    if (memo_ < 0x100) {
      out_ += 'q';
      out_ += static_cast<char>(memo_);
    } else {
      out_ += 'r';
      Le(memo_, 4);
    }
    ++memo_;
  }

  std::string out_;
  uint32_t memo_ = 0;
};

Result<uint64_t> CheckedNumel(const std::string& path, const std::vector<int64_t>& shape) {
  constexpr uint64_t kLimit = uint64_t{1} << 62;
  uint64_t numel = 1;
  bool has_zero = false;
  for (int64_t d : shape) {
    if (d < 0) return Status::InvalidInput(path, "negative dimension in the shape");
    if (d == 0) {
      has_zero = true;
    } else if (numel > kLimit / static_cast<uint64_t>(d)) {
      return Status::InvalidInput(path, "the shape has too many elements");
    } else {
      numel *= static_cast<uint64_t>(d);
    }
  }
  return has_zero ? 0 : numel;
}

// ---- minizip over a file descriptor we opened with O_EXCL ----

voidpf OpenOwnFd(voidpf opaque, const void* /*filename*/, int /*mode*/) {
  const int fd = *static_cast<int*>(opaque);
  return ::fdopen(fd, "w+b");
}

// Opens a stored member whose data starts at a multiple of kAlignment: the local header's extra field
// carries the padding, as torch's writer does (id "FB", then 'Z' bytes).
Status OpenMember(zipFile zip, const std::string& source, const std::string& name, uint64_t size, uint64_t* offset) {
  const bool zip64 = size >= 0xffffffffull;
  const uint64_t fixed = kLocalHeaderBytes + name.size() + (zip64 ? kZip64LocalExtra : 0) + 4;
  const uint64_t pad = (kAlignment - (*offset + fixed) % kAlignment) % kAlignment;
  std::string extra = "FB";
  extra.push_back(static_cast<char>(pad & 0xff));
  extra.push_back(static_cast<char>(pad >> 8));
  extra.append(pad, 'Z');
  zip_fileinfo info{};
  const int rc = zipOpenNewFileInZip64(zip, name.c_str(), &info, extra.data(), static_cast<uInt>(extra.size()), nullptr,
                                       0, nullptr, 0 /* stored */, 0, zip64 ? 1 : 0);
  if (rc != ZIP_OK) return Status::IOError(source, fmt::format("cannot add zip member {} (minizip error {})", name, rc));
  *offset += fixed + pad + size;
  return Status::Ok();
}

Status WriteData(zipFile zip, const std::string& source, Bytes data) {
  for (uint64_t done = 0; done < data.size();) {
    const uint64_t n = std::min<uint64_t>(kMinizipChunk, data.size() - done);
    if (zipWriteInFileInZip(zip, data.data() + done, static_cast<unsigned>(n)) != ZIP_OK) {
      return Status::IOError(source, std::string("cannot write: ") + std::strerror(errno));
    }
    done += n;
  }
  return Status::Ok();
}

Status CloseMember(zipFile zip, const std::string& source) {
  if (zipCloseFileInZip(zip) != ZIP_OK) return Status::IOError(source, "cannot finish a zip member");
  return Status::Ok();
}

Status WriteMember(zipFile zip, const std::string& source, const std::string& name, std::string_view data,
                   uint64_t* offset) {
  MSP_RETURN_IF_ERROR(OpenMember(zip, source, name, data.size(), offset));
  MSP_RETURN_IF_ERROR(WriteData(zip, source, AsBytes(data)));
  return CloseMember(zip, source);
}

}  // namespace

std::string TorchTensorPickle(DType dtype, const std::vector<int64_t>& shape) {
  uint64_t numel = 1;
  for (int64_t d : shape) numel *= static_cast<uint64_t>(d);
  std::vector<int64_t> strides(shape.size());
  int64_t stride = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= std::max<int64_t>(shape[i], 1);
  }
  Pickler p;
  p.Op('\x80');
  p.Op('\x02');  // protocol 2
  p.Global("torch._utils", "_rebuild_tensor_v2");
  p.Op('(');
  p.Op('(');  // the persistent id: ('storage', <storage class>, key, location, numel)
  p.Unicode("storage");
  p.Global("torch", Info(dtype).storage);
  p.Unicode("0");
  p.Unicode("cpu");
  p.Int(numel);
  p.Tuple();
  p.Op('Q');  // BINPERSID
  p.Int(0);   // storage_offset
  p.IntTuple(shape);
  p.IntTuple(strides);
  p.Op('\x89');  // requires_grad False
  p.Global("collections", "OrderedDict");
  p.Op(')');
  p.Reduce();  // backward_hooks: OrderedDict()
  p.Tuple();
  p.Reduce();
  p.Op('.');
  return std::move(p.bytes());
}

Result<PtWriter> PtWriter::Create(const std::string& path, DType dtype, const std::vector<int64_t>& shape) {
  if (Info(dtype).storage.empty()) {
    return Status::Unsupported(path, fmt::format("{} has no torch storage class; convert it before writing .pt", Name(dtype)));
  }
  MSP_ASSIGN_OR_RETURN(uint64_t numel, CheckedNumel(path, shape));
  std::string temp;
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
    temp = path + ".tmp." + RandomSuffix();
    fd = ::open(temp.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) return Status::IOError(path, std::string("cannot create: ") + std::strerror(errno));
  }
  if (fd < 0) return Status::IOError(path, "cannot create a temporary file beside it: every name tried exists");
  zlib_filefunc64_def funcs;
  fill_fopen64_filefunc(&funcs);
  funcs.zopen64_file = OpenOwnFd;
  funcs.opaque = &fd;
  zipFile zip = zipOpen2_64(temp.c_str(), APPEND_STATUS_CREATE, nullptr, &funcs);
  if (zip == nullptr) {
    ::close(fd);
    ::unlink(temp.c_str());
    return Status::IOError(path, "cannot start the zip archive");
  }
  std::string folder = std::filesystem::path(path).stem().string();
  if (folder.empty()) folder = "archive";
  PtWriter writer(path, std::move(temp), zip, dtype, numel, std::move(folder), 0);
  writer.pending_slot_ = internal::RegisterPendingFile(writer.temp_path_.c_str());
  const std::string pickle = TorchTensorPickle(dtype, shape);
  MSP_RETURN_IF_ERROR(WriteMember(zip, path, writer.folder_ + "/data.pkl", pickle, &writer.offset_));
  MSP_RETURN_IF_ERROR(WriteMember(zip, path, writer.folder_ + "/byteorder", "little", &writer.offset_));
  MSP_RETURN_IF_ERROR(OpenMember(zip, path, writer.folder_ + "/data/0", ByteSize(dtype, numel), &writer.offset_));
  return writer;
}

PtWriter::PtWriter(PtWriter&& other) noexcept
    : path_(std::move(other.path_)), temp_path_(std::move(other.temp_path_)), zip_(other.zip_), dtype_(other.dtype_),
      numel_(other.numel_), appended_(other.appended_), folder_(std::move(other.folder_)), offset_(other.offset_),
      pending_slot_(other.pending_slot_), committed_(other.committed_) {
  other.zip_ = nullptr;
  other.pending_slot_ = -1;
  other.committed_ = true;  // nothing left for the moved-from object to remove
}

PtWriter::~PtWriter() {
  if (zip_ != nullptr) zipClose(static_cast<zipFile>(zip_), nullptr);
  if (!committed_ && !temp_path_.empty()) ::unlink(temp_path_.c_str());
  internal::ReleasePendingFile(pending_slot_);
}

Status PtWriter::Append(Bytes elements) {
  const uint64_t item = ByteSize(dtype_, 1);
  if (zip_ == nullptr) return Status::Internal(path_, "append after Finish");
  if (elements.size() % item != 0) return Status::Internal(path_, "a partial element was appended");
  if (elements.size() / item > numel_ - appended_) return Status::Internal(path_, "more elements than the shape holds");
  MSP_RETURN_IF_ERROR(WriteData(static_cast<zipFile>(zip_), path_, elements));
  appended_ += elements.size() / item;
  return Status::Ok();
}

Status PtWriter::Finish() {
  if (zip_ == nullptr) return Status::Internal(path_, "Finish called twice");
  if (appended_ != numel_) {
    return Status::Internal(path_, fmt::format("{} of {} elements written", appended_, numel_));
  }
  zipFile zip = static_cast<zipFile>(zip_);
  MSP_RETURN_IF_ERROR(CloseMember(zip, path_));
  MSP_RETURN_IF_ERROR(WriteMember(zip, path_, folder_ + "/version", "3\n", &offset_));
  zip_ = nullptr;
  if (zipClose(zip, nullptr) != ZIP_OK) return Status::IOError(path_, "cannot finish the zip archive");
  if (std::rename(temp_path_.c_str(), path_.c_str()) != 0) {
    return Status::IOError(path_, std::string("cannot rename into place: ") + std::strerror(errno));
  }
  committed_ = true;
  return Status::Ok();
}

Status WritePt(const std::string& path, DType dtype, const std::vector<int64_t>& shape, Bytes elements) {
  MSP_ASSIGN_OR_RETURN(PtWriter writer, PtWriter::Create(path, dtype, shape));
  MSP_RETURN_IF_ERROR(writer.Append(elements));
  return writer.Finish();
}

}  // namespace msprobe
