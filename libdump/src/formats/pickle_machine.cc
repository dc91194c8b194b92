#include "msprobe/dump/formats/pickle_machine.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <optional>
#include <unordered_map>

#include "msprobe/dump/text/utf8.h"

namespace msprobe {
namespace {

// Names of every pickle opcode (protocols 0–5), so that even refused ones are named in messages.
const char* OpName(uint8_t op) {
  switch (op) {
    case '(': return "MARK";
    case '.': return "STOP";
    case '0': return "POP";
    case '1': return "POP_MARK";
    case '2': return "DUP";
    case 'F': return "FLOAT";
    case 'I': return "INT";
    case 'J': return "BININT";
    case 'K': return "BININT1";
    case 'L': return "LONG";
    case 'M': return "BININT2";
    case 'N': return "NONE";
    case 'P': return "PERSID";
    case 'Q': return "BINPERSID";
    case 'R': return "REDUCE";
    case 'S': return "STRING";
    case 'T': return "BINSTRING";
    case 'U': return "SHORT_BINSTRING";
    case 'V': return "UNICODE";
    case 'X': return "BINUNICODE";
    case 'a': return "APPEND";
    case 'b': return "BUILD";
    case 'c': return "GLOBAL";
    case 'd': return "DICT";
    case '}': return "EMPTY_DICT";
    case 'e': return "APPENDS";
    case 'g': return "GET";
    case 'h': return "BINGET";
    case 'i': return "INST";
    case 'j': return "LONG_BINGET";
    case 'l': return "LIST";
    case ']': return "EMPTY_LIST";
    case 'o': return "OBJ";
    case 'p': return "PUT";
    case 'q': return "BINPUT";
    case 'r': return "LONG_BINPUT";
    case 's': return "SETITEM";
    case 't': return "TUPLE";
    case ')': return "EMPTY_TUPLE";
    case 'u': return "SETITEMS";
    case 'G': return "BINFLOAT";
    case 0x80: return "PROTO";
    case 0x81: return "NEWOBJ";
    case 0x82: return "EXT1";
    case 0x83: return "EXT2";
    case 0x84: return "EXT4";
    case 0x85: return "TUPLE1";
    case 0x86: return "TUPLE2";
    case 0x87: return "TUPLE3";
    case 0x88: return "NEWTRUE";
    case 0x89: return "NEWFALSE";
    case 0x8a: return "LONG1";
    case 0x8b: return "LONG4";
    case 'B': return "BINBYTES";
    case 'C': return "SHORT_BINBYTES";
    case 0x8c: return "SHORT_BINUNICODE";
    case 0x8d: return "BINUNICODE8";
    case 0x8e: return "BINBYTES8";
    case 0x8f: return "EMPTY_SET";
    case 0x90: return "ADDITEMS";
    case 0x91: return "FROZENSET";
    case 0x92: return "NEWOBJ_EX";
    case 0x93: return "STACK_GLOBAL";
    case 0x94: return "MEMOIZE";
    case 0x95: return "FRAME";
    case 0x96: return "BYTEARRAY8";
    case 0x97: return "NEXT_BUFFER";
    case 0x98: return "READONLY_BUFFER";
    default: return nullptr;
  }
}

// Python's raw-unicode-escape (protocol 0 UNICODE): bytes are latin-1 code points except \uXXXX and
// \UXXXXXXXX escapes. Returns nullopt for a malformed escape.
std::optional<std::string> DecodeRawUnicodeEscape(std::string_view in) {
  std::string out;
  out.reserve(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const auto c = static_cast<uint8_t>(in[i]);
    const size_t digits = c == '\\' && i + 1 < in.size() ? (in[i + 1] == 'u' ? 4 : in[i + 1] == 'U' ? 8 : 0) : 0;
    if (digits == 0) {
      AppendUtf8(c, &out);
      continue;
    }
    uint32_t cp = 0;
    const char* first = in.data() + i + 2;
    if (i + 2 + digits > in.size()) return std::nullopt;
    const auto [end, ec] = std::from_chars(first, first + digits, cp, 16);
    if (ec != std::errc() || end != first + digits || cp > 0x10ffff) return std::nullopt;
    AppendUtf8(cp, &out);
    i += 1 + digits;
  }
  return out;
}

std::string Plural(size_t n, const char* word) { return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s"); }

}  // namespace

class PickleMachine {
 public:
  PickleMachine(Bytes bytes, const std::string& source, const PickleLimits& limits)
      : cursor_(bytes, source), limits_(limits) {
    limits_.max_values = std::min<uint64_t>(limits_.max_values, UINT32_MAX);
  }

  Result<PickleTree> Run() {
    for (;;) {
      op_offset_ = cursor_.Offset();
      if (cursor_.AtEnd()) {
        return cursor_.Error(fmt::format("pickle ends at offset {} without a STOP opcode", op_offset_));
      }
      op_ = cursor_.U8().value();
      if (op_ == '.') {
        if (stack_.empty()) return Fail("the stack is empty");
        tree_.root_ = stack_.back();
        tree_.end_offset_ = cursor_.Offset();
        return std::move(tree_);
      }
      MSP_RETURN_IF_ERROR(Step());
    }
  }

 private:
  Status Fail(const std::string& what) const {
    const char* name = OpName(op_);
    return cursor_.Error(name ? fmt::format("pickle opcode {} (0x{:02x}) at offset {}: {}", name, op_, op_offset_, what)
                              : fmt::format("pickle opcode 0x{:02x} at offset {}: {}", op_, op_offset_, what));
  }

  // ---- reading arguments ----
  template <class T>
  Result<T> Arg() {
    Result<T> v = cursor_.LittleEndian<T>();
    if (!v.ok()) return Fail(fmt::format("argument needs {} bytes, {} left", sizeof(T), cursor_.Remaining()));
    return v;
  }
  Result<Bytes> ArgBytes(uint64_t n) {
    Result<Bytes> v = cursor_.Take(n);
    if (!v.ok()) return Fail(fmt::format("argument needs {} bytes, {} left", n, cursor_.Remaining()));
    return v;
  }
  Result<std::string_view> ArgLine() {
    Result<std::string_view> v = cursor_.Until('\n');
    if (!v.ok()) return Fail("argument has no terminating newline");
    return v;
  }
  Result<int64_t> ArgDecimal() {
    MSP_ASSIGN_OR_RETURN(std::string_view line, ArgLine());
    if (!line.empty() && line.back() == 'L') line.remove_suffix(1);  // LONG's suffix
    int64_t v = 0;
    const auto [end, ec] = std::from_chars(line.data(), line.data() + line.size(), v);
    if (ec != std::errc() || end != line.data() + line.size()) {
      return Fail(fmt::format("'{}' is not a decimal that fits in int64", line.substr(0, 32)));
    }
    return v;
  }
  // Two's-complement little-endian integer of n bytes (LONG1 / LONG4).
  Result<int64_t> ArgLong(uint64_t n) {
    MSP_ASSIGN_OR_RETURN(Bytes b, ArgBytes(n));
    if (n == 0) return int64_t{0};
    const bool negative = (static_cast<uint8_t>(b[n - 1]) & 0x80) != 0;
    const auto fill = static_cast<std::byte>(negative ? 0xff : 0x00);
    for (uint64_t i = 8; i < n; ++i) {
      if (b[i] != fill) return Fail(fmt::format("integer of {} bytes does not fit in int64", n));
    }
    uint64_t u = negative ? ~uint64_t{0} : 0;
    for (uint64_t i = 0; i < std::min<uint64_t>(n, 8); ++i) {
      u &= ~(uint64_t{0xff} << (8 * i));
      u |= uint64_t{static_cast<uint8_t>(b[i])} << (8 * i);
    }
    if (n > 8 && ((u >> 63) != 0) != negative) return Fail(fmt::format("integer of {} bytes does not fit in int64", n));
    return static_cast<int64_t>(u);
  }

  // ---- the value arena and the stack ----
  Result<PickleRef> New(PickleValue value, uint32_t depth) {
    if (tree_.values_.size() >= limits_.max_values) {
      return Fail(fmt::format("more than {} values", limits_.max_values));
    }
    if (depth > limits_.max_depth) return Fail(fmt::format("values nested deeper than {}", limits_.max_depth));
    tree_.values_.push_back(std::move(value));
    depth_.push_back(depth);
    return static_cast<PickleRef>(tree_.values_.size() - 1);
  }
  Status PushNew(PickleValue value, uint32_t depth = 1) {
    MSP_ASSIGN_OR_RETURN(PickleRef ref, New(std::move(value), depth));
    stack_.push_back(ref);
    return Status::Ok();
  }
  Status PushScalar(PickleKind kind, bool boolean = false, int64_t integer = 0, double real = 0) {
    PickleValue v;
    v.kind = kind;
    v.boolean = boolean;
    v.integer = integer;
    v.real = real;
    return PushNew(std::move(v));
  }
  Status PushString(std::string_view text) {
    PickleValue v;
    v.kind = PickleKind::kString;
    v.text = std::string(text);
    return PushNew(std::move(v));
  }
  // A container of `items`, one level deeper than its deepest item.
  Status PushContainer(PickleKind kind, std::vector<PickleRef> items) {
    uint32_t depth = 0;
    for (PickleRef r : items) depth = std::max(depth, depth_[r]);
    PickleValue v;
    v.kind = kind;
    v.items = std::move(items);
    return PushNew(std::move(v), depth + 1);
  }
  size_t Base() const { return marks_.empty() ? 0 : marks_.back(); }
  Status Need(size_t n) const {
    const size_t have = stack_.size() - Base();
    if (have >= n) return Status::Ok();
    return Fail(fmt::format("needs {} on the stack, {} {}", Plural(n, "value"), have,
                            marks_.empty() ? "there" : "above the mark"));
  }
  PickleRef Pop() {
    const PickleRef r = stack_.back();
    stack_.pop_back();
    return r;
  }
  Result<std::vector<PickleRef>> PopMark() {
    if (marks_.empty()) return Fail("no MARK is open");
    std::vector<PickleRef> items(stack_.begin() + static_cast<ptrdiff_t>(marks_.back()), stack_.end());
    stack_.resize(marks_.back());
    marks_.pop_back();
    return items;
  }
  // The list or dict on top of the stack that APPEND(S)/SETITEM(S) extend.
  Result<PickleRef> Target(PickleKind kind) {
    MSP_RETURN_IF_ERROR(Need(1));
    const PickleRef r = stack_.back();
    if (tree_.at(r).kind != kind) {
      return Fail(fmt::format("target is a {}, not a {}", tree_.Describe(r), kind == PickleKind::kList ? "list" : "dict"));
    }
    return r;
  }
  Status Extend(PickleRef target, const std::vector<PickleRef>& items) {
    uint32_t depth = depth_[target];
    for (PickleRef r : items) depth = std::max(depth, depth_[r] + 1);
    if (depth > limits_.max_depth) return Fail(fmt::format("values nested deeper than {}", limits_.max_depth));
    depth_[target] = depth;
    auto& dst = tree_.values_[target].items;
    dst.insert(dst.end(), items.begin(), items.end());
    return Status::Ok();
  }
  Status Put(int64_t index) {
    MSP_RETURN_IF_ERROR(Need(1));
    if (index < 0) return Fail(fmt::format("negative memo index {}", index));
    memo_[static_cast<uint64_t>(index)] = stack_.back();
    return Status::Ok();
  }
  Status Get(int64_t index) {
    const auto it = index < 0 ? memo_.end() : memo_.find(static_cast<uint64_t>(index));
    if (it == memo_.end()) return Fail(fmt::format("memo index {} is not set ({} set)", index, memo_.size()));
    stack_.push_back(it->second);
    return Status::Ok();
  }

  Status Step() {
    switch (op_) {
      case 0x80: {  // PROTO
        MSP_ASSIGN_OR_RETURN(uint8_t version, Arg<uint8_t>());
        if (version > 2) {
          return Status::Unsupported(cursor_.source(), fmt::format("pickle protocol {} at offset {} (only 0 to 2 "
                                                                   "are supported)", version, op_offset_));
        }
        return Status::Ok();
      }
      case '(':
        if (marks_.size() >= limits_.max_depth) return Fail(fmt::format("more than {} MARKs open", limits_.max_depth));
        marks_.push_back(stack_.size());
        return Status::Ok();
      case '0':  // POP: a value, or the mark when none is above it
        if (stack_.size() > Base()) {
          stack_.pop_back();
          return Status::Ok();
        }
        return PopMark().status();
      case '1':
        return PopMark().status();
      case '2':
        MSP_RETURN_IF_ERROR(Need(1));
        stack_.push_back(stack_.back());
        return Status::Ok();
      case 'c': {
        MSP_ASSIGN_OR_RETURN(std::string_view module, ArgLine());
        MSP_ASSIGN_OR_RETURN(std::string_view name, ArgLine());
        PickleValue v;
        v.kind = PickleKind::kGlobal;
        v.text = std::string(module);
        v.name = std::string(name);
        return PushNew(std::move(v));
      }
      case 'N': return PushScalar(PickleKind::kNone);
      case 0x88: return PushScalar(PickleKind::kBool, true);
      case 0x89: return PushScalar(PickleKind::kBool, false);
      case 'K': {
        MSP_ASSIGN_OR_RETURN(uint8_t v, Arg<uint8_t>());
        return PushScalar(PickleKind::kInt, false, v);
      }
      case 'M': {
        MSP_ASSIGN_OR_RETURN(uint16_t v, Arg<uint16_t>());
        return PushScalar(PickleKind::kInt, false, v);
      }
      case 'J': {
        MSP_ASSIGN_OR_RETURN(int32_t v, Arg<int32_t>());
        return PushScalar(PickleKind::kInt, false, v);
      }
      case 0x8a: {
        MSP_ASSIGN_OR_RETURN(uint8_t n, Arg<uint8_t>());
        MSP_ASSIGN_OR_RETURN(int64_t v, ArgLong(n));
        return PushScalar(PickleKind::kInt, false, v);
      }
      case 0x8b: {
        MSP_ASSIGN_OR_RETURN(int32_t n, Arg<int32_t>());
        if (n < 0) return Fail(fmt::format("negative length {}", n));
        MSP_ASSIGN_OR_RETURN(int64_t v, ArgLong(static_cast<uint64_t>(n)));
        return PushScalar(PickleKind::kInt, false, v);
      }
      case 'I': {  // protocol 0 also spells True/False as INT 01 / 00
        MSP_ASSIGN_OR_RETURN(std::string_view line, ArgLine());
        if (line == "01" || line == "00") return PushScalar(PickleKind::kBool, line == "01");
        MSP_RETURN_IF_ERROR(cursor_.Seek(op_offset_ + 1));
        MSP_ASSIGN_OR_RETURN(int64_t v, ArgDecimal());
        return PushScalar(PickleKind::kInt, false, v);
      }
      case 'L': {
        MSP_ASSIGN_OR_RETURN(int64_t v, ArgDecimal());
        return PushScalar(PickleKind::kInt, false, v);
      }
      case 'G': {  // BINFLOAT is big-endian
        MSP_ASSIGN_OR_RETURN(uint64_t bits, Arg<uint64_t>());
        if constexpr (std::endian::native == std::endian::little) bits = __builtin_bswap64(bits);
        return PushScalar(PickleKind::kFloat, false, 0, std::bit_cast<double>(bits));
      }
      case 'F': {
        MSP_ASSIGN_OR_RETURN(std::string_view line, ArgLine());
        double v = 0;
        const auto [end, ec] = std::from_chars(line.data(), line.data() + line.size(), v);
        if (ec != std::errc() || end != line.data() + line.size()) {
          return Fail(fmt::format("'{}' is not a float", line.substr(0, 32)));
        }
        return PushScalar(PickleKind::kFloat, false, 0, v);
      }
      case 'X': {
        MSP_ASSIGN_OR_RETURN(uint32_t n, Arg<uint32_t>());
        MSP_ASSIGN_OR_RETURN(Bytes b, ArgBytes(n));
        return PushString(AsChars(b));
      }
      case 'T': {
        MSP_ASSIGN_OR_RETURN(int32_t n, Arg<int32_t>());
        if (n < 0) return Fail(fmt::format("negative length {}", n));
        MSP_ASSIGN_OR_RETURN(Bytes b, ArgBytes(static_cast<uint64_t>(n)));
        return PushString(AsChars(b));
      }
      case 'U': {
        MSP_ASSIGN_OR_RETURN(uint8_t n, Arg<uint8_t>());
        MSP_ASSIGN_OR_RETURN(Bytes b, ArgBytes(n));
        return PushString(AsChars(b));
      }
      case 'V': {
        MSP_ASSIGN_OR_RETURN(std::string_view line, ArgLine());
        std::optional<std::string> text = DecodeRawUnicodeEscape(line);
        if (!text) return Fail("malformed \\u escape");
        return PushString(*text);
      }
      case ')': return PushContainer(PickleKind::kTuple, {});
      case 't': {
        MSP_ASSIGN_OR_RETURN(std::vector<PickleRef> items, PopMark());
        return PushContainer(PickleKind::kTuple, std::move(items));
      }
      case 0x85:
      case 0x86:
      case 0x87: {
        const size_t n = op_ - 0x84u;
        MSP_RETURN_IF_ERROR(Need(n));
        std::vector<PickleRef> items(stack_.end() - static_cast<ptrdiff_t>(n), stack_.end());
        stack_.resize(stack_.size() - n);
        return PushContainer(PickleKind::kTuple, std::move(items));
      }
      case ']': return PushContainer(PickleKind::kList, {});
      case '}': return PushContainer(PickleKind::kDict, {});
      case 'l': {
        MSP_ASSIGN_OR_RETURN(std::vector<PickleRef> items, PopMark());
        return PushContainer(PickleKind::kList, std::move(items));
      }
      case 'd': {
        MSP_ASSIGN_OR_RETURN(std::vector<PickleRef> items, PopMark());
        if (items.size() % 2 != 0) return Fail(fmt::format("odd number of values ({}) for a dict", items.size()));
        return PushContainer(PickleKind::kDict, std::move(items));
      }
      case 'a': {
        MSP_RETURN_IF_ERROR(Need(2));
        const PickleRef item = Pop();
        MSP_ASSIGN_OR_RETURN(PickleRef list, Target(PickleKind::kList));
        return Extend(list, {item});
      }
      case 'e': {
        MSP_ASSIGN_OR_RETURN(std::vector<PickleRef> items, PopMark());
        MSP_ASSIGN_OR_RETURN(PickleRef list, Target(PickleKind::kList));
        return Extend(list, items);
      }
      case 's': {
        MSP_RETURN_IF_ERROR(Need(3));
        const PickleRef value = Pop();
        const PickleRef key = Pop();
        MSP_ASSIGN_OR_RETURN(PickleRef dict, Target(PickleKind::kDict));
        return Extend(dict, {key, value});
      }
      case 'u': {
        MSP_ASSIGN_OR_RETURN(std::vector<PickleRef> items, PopMark());
        if (items.size() % 2 != 0) return Fail(fmt::format("odd number of values ({}) for a dict", items.size()));
        MSP_ASSIGN_OR_RETURN(PickleRef dict, Target(PickleKind::kDict));
        return Extend(dict, items);
      }
      case 'q': {
        MSP_ASSIGN_OR_RETURN(uint8_t i, Arg<uint8_t>());
        return Put(i);
      }
      case 'r': {
        MSP_ASSIGN_OR_RETURN(uint32_t i, Arg<uint32_t>());
        return Put(i);
      }
      case 'p': {
        MSP_ASSIGN_OR_RETURN(int64_t i, ArgDecimal());
        return Put(i);
      }
      case 'h': {
        MSP_ASSIGN_OR_RETURN(uint8_t i, Arg<uint8_t>());
        return Get(i);
      }
      case 'j': {
        MSP_ASSIGN_OR_RETURN(uint32_t i, Arg<uint32_t>());
        return Get(i);
      }
      case 'g': {
        MSP_ASSIGN_OR_RETURN(int64_t i, ArgDecimal());
        return Get(i);
      }
      case 'Q': {
        MSP_RETURN_IF_ERROR(Need(1));
        return PushContainer(PickleKind::kPersistentId, {Pop()});
      }
      case 'P': {
        MSP_ASSIGN_OR_RETURN(std::string_view line, ArgLine());
        MSP_RETURN_IF_ERROR(PushString(line));
        return PushContainer(PickleKind::kPersistentId, {Pop()});
      }
      case 'R':
      case 'b': {
        MSP_RETURN_IF_ERROR(Need(2));
        const PickleRef second = Pop();
        const PickleRef first = Pop();
        return PushContainer(op_ == 'R' ? PickleKind::kReduce : PickleKind::kBuild, {first, second});
      }
      default:
        return Fail(OpName(op_) ? "opcode not supported (pickle protocol 0 to 2 as torch.save writes it)"
                                : "unknown opcode");
    }
  }

  ByteCursor cursor_;
  PickleLimits limits_;
  PickleTree tree_;
  std::vector<uint32_t> depth_;  // per value, parallel to tree_.values_
  std::vector<PickleRef> stack_;
  std::vector<size_t> marks_;    // stack sizes at each open MARK
  std::unordered_map<uint64_t, PickleRef> memo_;
  uint8_t op_ = 0;
  uint64_t op_offset_ = 0;
};

Result<PickleTree> Unpickle(Bytes bytes, const std::string& source, const PickleLimits& limits) {
  return PickleMachine(bytes, source, limits).Run();
}

bool PickleTree::IsGlobal(PickleRef ref, std::string_view module, std::string_view name) const {
  const PickleValue& v = values_[ref];
  return v.kind == PickleKind::kGlobal && v.text == module && v.name == name;
}

std::string PickleTree::Describe(PickleRef ref) const { return Describe(ref, 2); }

std::string PickleTree::Describe(PickleRef ref, int depth) const {
  const PickleValue& v = values_[ref];
  switch (v.kind) {
    case PickleKind::kNone: return "None";
    case PickleKind::kBool: return v.boolean ? "bool True" : "bool False";
    case PickleKind::kInt: return fmt::format("int {}", v.integer);
    case PickleKind::kFloat: return fmt::format("float {}", v.real);
    case PickleKind::kString:
      return fmt::format("string '{}{}'", v.text.substr(0, 40), v.text.size() > 40 ? "..." : "");
    case PickleKind::kTuple: return "tuple of " + Plural(v.items.size(), "item");
    case PickleKind::kList: return "list of " + Plural(v.items.size(), "item");
    case PickleKind::kDict:
      return fmt::format("dict of {} {}", v.items.size() / 2, v.items.size() / 2 == 1 ? "entry" : "entries");
    case PickleKind::kGlobal: return fmt::format("global {}.{}", v.text, v.name);
    case PickleKind::kPersistentId: return "persistent id";
    case PickleKind::kReduce: {
      const PickleValue& callable = values_[v.items[0]];
      if (callable.kind == PickleKind::kGlobal) return fmt::format("call to {}.{}", callable.text, callable.name);
      return depth > 0 ? "call to " + Describe(v.items[0], depth - 1) : "call";
    }
    case PickleKind::kBuild:
      return depth > 0 ? Describe(v.items[0], depth - 1) + " with state" : "object with state";
  }
  return "value";
}

}  // namespace msprobe
