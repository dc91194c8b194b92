#include "msprobe/dump/formats/pt_reader.h"

#include <fmt/format.h>

#include <array>
#include <optional>

#include "msprobe/dump/io/mapped_file.h"
#include "msprobe/dump/formats/pickle_machine.h"
#include "msprobe/dump/formats/zip_archive.h"

namespace msprobe {
namespace {

// torch.save(..., _use_new_zipfile_serialization=False): PROTO 2, then LONG1 0x1950a86a20f9469cfc6c.
constexpr std::array<uint8_t, 14> kLegacyMagic = {0x80, 0x02, 0x8a, 0x0a, 0x6c, 0xfc, 0x9c,
                                                  0x46, 0xf9, 0x20, 0x6a, 0xa8, 0x50, 0x19};
constexpr std::string_view kZipMagic = "PK\x03\x04";

bool StartsWith(Bytes file, Bytes prefix) {
  return file.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), file.begin());
}

// The same failure with `place` in front of its message.
Status InPlace(const Status& s, const std::string& place) {
  const std::string message = place + ": " + s.message();
  switch (s.code()) {
    case Code::kUnsupported: return Status::Unsupported(s.source(), message);
    case Code::kNotFound: return Status::NotFound(s.source(), message);
    case Code::kIOError: return Status::IOError(s.source(), message);
    case Code::kInternal: return Status::Internal(s.source(), message);
    default: return Status::InvalidInput(s.source(), message);
  }
}

// Walks the value tree of data.pkl for one tensor; `pkl` names data.pkl in messages.
class TensorPickle {
 public:
  TensorPickle(const PickleTree& tree, std::string source, std::string pkl)
      : tree_(tree), source_(std::move(source)), pkl_(std::move(pkl)) {}

  // What the pickle says; the storage member is resolved by the caller.
  struct Parsed {
    DType dtype = DType::kF32;
    bool untyped = false;       // UntypedStorage: the persistent id numel counts bytes
    std::string key;
    int64_t numel = 0;
    int64_t storage_offset = 0;
    std::vector<int64_t> shape;
    std::vector<int64_t> strides;
    bool requires_grad = false;
  };

  Result<Parsed> Parse() const {
    const PickleValue& root = tree_.at(tree_.root());
    const bool v2 = root.kind == PickleKind::kReduce && tree_.IsGlobal(root.items[0], "torch._utils", "_rebuild_tensor_v2");
    const bool v3 = root.kind == PickleKind::kReduce && tree_.IsGlobal(root.items[0], "torch._utils", "_rebuild_tensor_v3");
    if (!v2 && !v3) {
      std::string what = tree_.Describe(tree_.root());
      if (root.kind == PickleKind::kReduce && tree_.IsGlobal(root.items[0], "torch._utils", "_rebuild_parameter")) {
        what += " (an nn.Parameter)";
      }
      return Unsupported(fmt::format("holds a {}, not a single tensor", what));
    }
    const char* fn = v2 ? "_rebuild_tensor_v2" : "_rebuild_tensor_v3";
    const PickleValue& args = tree_.at(root.items[1]);
    const size_t min_args = v2 ? 6 : 7;
    if (args.kind != PickleKind::kTuple || args.items.size() < min_args || args.items.size() > min_args + 1) {
      return Invalid(fmt::format("{} takes {} or {} arguments, got a {}", fn, min_args, min_args + 1,
                                 tree_.Describe(root.items[1])));
    }
    Parsed out;
    MSP_RETURN_IF_ERROR(ParseStorage(args.items[0], &out));
    MSP_ASSIGN_OR_RETURN(out.storage_offset, Int(args.items[1], "storage_offset"));
    MSP_ASSIGN_OR_RETURN(out.shape, IntTuple(args.items[2], "size"));
    MSP_ASSIGN_OR_RETURN(out.strides, IntTuple(args.items[3], "stride"));
    if (out.shape.size() != out.strides.size()) {
      return Invalid(fmt::format("size has {} dims but stride has {}", out.shape.size(), out.strides.size()));
    }
    const PickleValue& grad = tree_.at(args.items[4]);
    if (grad.kind != PickleKind::kBool) {
      return Invalid(fmt::format("requires_grad is a {}, expected a bool", tree_.Describe(args.items[4])));
    }
    out.requires_grad = grad.boolean;
    if (!IsEmptyHooks(args.items[5])) {
      return Unsupported(fmt::format("backward_hooks is a {}, expected an empty OrderedDict",
                                     tree_.Describe(args.items[5])));
    }
    if (v3) {
      MSP_ASSIGN_OR_RETURN(const DType dtype, DTypeArg(args.items[6]));
      if (!out.untyped && dtype != out.dtype) {
        return Invalid(fmt::format("dtype {} disagrees with the {} storage", Name(dtype), Name(out.dtype)));
      }
      out.dtype = dtype;
    } else if (out.untyped) {
      return Invalid("UntypedStorage in _rebuild_tensor_v2, which has no dtype argument");
    }
    // The optional last argument (metadata, e.g. torch_npu's format flags) is ignored.
    return out;
  }

 private:
  Status Invalid(const std::string& what) const { return Status::InvalidInput(source_, pkl_ + ": " + what); }
  Status Unsupported(const std::string& what) const { return Status::Unsupported(source_, pkl_ + " " + what); }

  Result<int64_t> Int(PickleRef ref, const char* what) const {
    const PickleValue& v = tree_.at(ref);
    if (v.kind != PickleKind::kInt) return Invalid(fmt::format("{} is a {}, expected an int", what, tree_.Describe(ref)));
    return v.integer;
  }
  Result<std::vector<int64_t>> IntTuple(PickleRef ref, const char* what) const {
    const PickleValue& v = tree_.at(ref);
    if (v.kind != PickleKind::kTuple) {
      return Invalid(fmt::format("{} is a {}, expected a tuple of ints", what, tree_.Describe(ref)));
    }
    std::vector<int64_t> out;
    out.reserve(v.items.size());
    for (size_t i = 0; i < v.items.size(); ++i) {
      const PickleValue& item = tree_.at(v.items[i]);
      if (item.kind != PickleKind::kInt) {
        return Invalid(fmt::format("{}[{}] is a {}, expected an int", what, i, tree_.Describe(v.items[i])));
      }
      out.push_back(item.integer);
    }
    return out;
  }
  const PickleValue* String(PickleRef ref) const {
    const PickleValue& v = tree_.at(ref);
    return v.kind == PickleKind::kString ? &v : nullptr;
  }
  // collections.OrderedDict() with no items (an empty plain dict is tolerated too).
  bool IsEmptyHooks(PickleRef ref) const {
    const PickleValue& v = tree_.at(ref);
    if (v.kind == PickleKind::kDict) return v.items.empty();
    if (v.kind != PickleKind::kReduce || !tree_.IsGlobal(v.items[0], "collections", "OrderedDict")) return false;
    const PickleValue& args = tree_.at(v.items[1]);
    return args.kind == PickleKind::kTuple && args.items.empty();
  }

  // ("storage", <storage class GLOBAL>, key, location, numel)
  Status ParseStorage(PickleRef ref, Parsed* out) const {
    const PickleValue& persid = tree_.at(ref);
    if (persid.kind != PickleKind::kPersistentId) {
      return Invalid(fmt::format("storage is a {}, expected a persistent id", tree_.Describe(ref)));
    }
    const PickleRef pid_ref = persid.items[0];
    const PickleValue& pid = tree_.at(pid_ref);
    const PickleValue* tag = pid.kind == PickleKind::kTuple && !pid.items.empty() ? String(pid.items[0]) : nullptr;
    if (pid.kind != PickleKind::kTuple || pid.items.size() != 5 || !tag || tag->text != "storage") {
      return Invalid(fmt::format("storage persistent id is a {}, expected ('storage', class, key, location, numel)",
                                 tree_.Describe(pid_ref)));
    }
    const PickleValue& cls = tree_.at(pid.items[1]);
    if (cls.kind != PickleKind::kGlobal || cls.text != "torch") {
      return Invalid(fmt::format("storage class is a {}, expected a torch storage GLOBAL",
                                 tree_.Describe(pid.items[1])));
    }
    if (cls.name == "UntypedStorage") {
      out->untyped = true;
    } else if (std::optional<DType> dtype = FromTorchStorage(cls.name)) {
      out->dtype = *dtype;
    } else if (cls.name.starts_with("Q") && cls.name.ends_with("Storage")) {
      return Unsupported(fmt::format("holds a quantized tensor (storage torch.{}), which is not supported", cls.name));
    } else {
      return Unsupported(fmt::format("uses storage class torch.{}, which is not supported", cls.name));
    }
    const PickleValue* key = String(pid.items[2]);
    if (!key) return Invalid(fmt::format("storage key is a {}, expected a string", tree_.Describe(pid.items[2])));
    out->key = key->text;
    MSP_ASSIGN_OR_RETURN(out->numel, Int(pid.items[4], "storage numel"));
    if (out->numel < 0) return Invalid(fmt::format("storage numel {} is negative", out->numel));
    return Status::Ok();  // the location (pid.items[3], "cpu", "cuda:0", "npu:0") does not matter on disk
  }

  Result<DType> DTypeArg(PickleRef ref) const {
    const PickleValue& v = tree_.at(ref);
    if (v.kind != PickleKind::kGlobal || v.text != "torch") {
      return Invalid(fmt::format("dtype is a {}, expected a torch dtype GLOBAL", tree_.Describe(ref)));
    }
    std::optional<DType> dtype = FromTorchName(v.name);
    if (!dtype || Info(*dtype).torch.empty() || Info(*dtype).bits % 8 != 0) {
      return Unsupported(fmt::format("holds a tensor of dtype torch.{}, which is not supported", v.name));
    }
    return *dtype;
  }

  const PickleTree& tree_;
  std::string source_;
  std::string pkl_;
};

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.remove_suffix(1);
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  return s;
}

}  // namespace

Result<TensorInfo> ParsePt(Bytes file, const std::string& source) {
  if (!StartsWith(file, AsBytes(kZipMagic))) {
    if (StartsWith(file, Bytes(reinterpret_cast<const std::byte*>(kLegacyMagic.data()), kLegacyMagic.size()))) {
      return Status::Unsupported(source, "legacy (non-zip) torch.save format is not supported; re-save with "
                                         "torch.save(t, path)");
    }
    return Status::InvalidInput(source, fmt::format("not a torch.save file: {} bytes that do not start with a zip "
                                                    "local header (PK\\x03\\x04)", file.size()));
  }
  MSP_ASSIGN_OR_RETURN(ZipArchive zip, ZipArchive::Open(file, source));
  if (zip.entries().empty()) return Status::InvalidInput(source, "zip archive has no members");
  // All members live under one folder: the file's stem for torch.save(t, path), "archive/" for buffers.
  const std::string& first = zip.entries().front().name;
  const size_t slash = first.find('/');
  if (slash == std::string::npos) {
    return Status::InvalidInput(source, fmt::format("first member '{}' is not inside a folder", first));
  }
  const std::string prefix = first.substr(0, slash + 1);

  const std::string pkl_name = prefix + "data.pkl";
  const ZipEntry* pkl_entry = zip.Find(pkl_name);
  if (!pkl_entry) return Status::InvalidInput(source, fmt::format("member '{}' is missing", pkl_name));
  MSP_ASSIGN_OR_RETURN(Bytes pkl, zip.Data(*pkl_entry));
  Result<PickleTree> tree = Unpickle(pkl, source);
  if (!tree.ok()) return InPlace(tree.status(), pkl_name);
  MSP_ASSIGN_OR_RETURN(TensorPickle::Parsed parsed, TensorPickle(*tree, source, pkl_name).Parse());

  TensorInfo info;
  if (const ZipEntry* order = zip.Find(prefix + "byteorder")) {
    MSP_ASSIGN_OR_RETURN(Bytes text, zip.Data(*order));
    const std::string_view value = Trim(AsChars(text));
    if (value != "little" && value != "big") {
      return Status::InvalidInput(source, fmt::format("member '{}' holds '{}', expected 'little' or 'big'",
                                                      order->name, value.substr(0, 32)));
    }
    info.big_endian = value == "big";
  }

  const std::string storage_name = prefix + "data/" + parsed.key;
  const ZipEntry* storage = zip.Find(storage_name);
  if (!storage) {
    return Status::InvalidInput(source, fmt::format("storage member '{}' named by {} is missing", storage_name,
                                                    pkl_name));
  }
  MSP_ASSIGN_OR_RETURN(Bytes data, zip.Data(*storage));
  const uint64_t itemsize = Info(parsed.dtype).bits / 8;
  if (data.size() % itemsize != 0) {
    return Status::InvalidInput(source, fmt::format("storage member '{}' has {} bytes, not a multiple of the {}-byte "
                                                    "{} element", storage_name, data.size(), itemsize,
                                                    Name(parsed.dtype)));
  }
  const uint64_t elements = data.size() / itemsize;
  const uint64_t declared = static_cast<uint64_t>(parsed.numel);
  if (parsed.untyped ? declared != data.size() : declared != elements) {
    return Status::InvalidInput(source, fmt::format("{} declares a storage of {} {} but member '{}' has {} bytes",
                                                    pkl_name, declared, parsed.untyped ? "bytes" : "elements",
                                                    storage_name, data.size()));
  }

  info.dtype = parsed.dtype;
  info.shape = std::move(parsed.shape);
  info.strides = std::move(parsed.strides);
  info.path = source;
  info.data_offset = storage->data_offset;
  info.storage_elements = elements;
  info.storage_offset = parsed.storage_offset;
  info.requires_grad = parsed.requires_grad;
  MSP_RETURN_IF_ERROR(ValidateExtent(info, source));
  return info;
}

Result<TensorInfo> ReadPtFile(const std::string& path) {
  MSP_ASSIGN_OR_RETURN(std::shared_ptr<MappedFile> file, MappedFile::Open(path));
  MSP_ASSIGN_OR_RETURN(MappedRegion region, file->MapAll());
  return ParsePt(region.bytes(), path);
}

}  // namespace msprobe
