#include "msprobe/compare/rows/flatten.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <filesystem>
#include <limits>
#include <mutex>
#include <optional>
#include <thread>
#include <string_view>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

#include "msprobe/dump/text/python_format.h"
#include "msprobe/dump/framework/dump_json.h"
#include "util/vector_pool_internal.h"

namespace msprobe::compare {
namespace {

// Const.MAX_DEPTH: op_item_parse refuses deeper nesting (docs/compare.md §2.3). Documents nested past
// kMaxJsonDepth are refused up front, which keeps every recursive renderer here off a deep stack.
constexpr int kMaxParseDepth = 400;

constexpr std::string_view kParamsGrad = "parameters_grad";

// The fields read_op walks, in its fixed order, with their name suffix and state (§2.3).
struct IoField {
  const char* key;
  const char* suffix;
  RowState state;
};
constexpr std::array<IoField, 5> kIoFields = {{
    {"input_args", ".input", RowState::kInput},
    {"input_kwargs", ".input", RowState::kInput},
    {"input", ".input", RowState::kInput},
    {"output", ".output", RowState::kOutput},
    {"parameters", ".parameters", RowState::kParameters},
}};

std::string_view StringOf(const JsonValue& v) { return {v.GetString(), v.GetStringLength()}; }

bool HasComponent(std::string_view name, std::string_view component) {
  for (size_t start = 0;;) {
    const size_t dot = name.find('.', start);
    if (name.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start) == component) {
      return true;
    }
    if (dot == std::string_view::npos) return false;
    start = dot + 1;
  }
}

// s.split('.')[-1] and [-2], the second empty when s has no '.'.
std::array<std::string_view, 2> LastTwoComponents(std::string_view s) {
  const size_t last_dot = s.rfind('.');
  if (last_dot == std::string_view::npos) return {s, {}};
  const std::string_view rest = s.substr(0, last_dot);
  const size_t prev_dot = rest.rfind('.');
  return {s.substr(last_dot + 1), prev_dot == std::string_view::npos ? rest : rest.substr(prev_dot + 1)};
}

// Python truthiness of what json.load made, false for a missing key.
bool Truthy(const JsonValue* v) { return v != nullptr && PythonTruthy(*v); }

// gen_op_item turns every top-level bool of a leaf into "True"/"False" before looking at it, so
// a bool field is always present and truthy.
bool TruthyAfterBoolToStr(const JsonValue* v) { return v != nullptr && (v->IsBool() || Truthy(v)); }

// str(value) with None for a missing key.
std::string StrOrNone(const JsonValue* v) { return v ? PythonStr(*v) : "None"; }

// A statistic as msprobe keeps it: numbers stay numbers, NaN becomes "Nan", None "None", and
// `bool_as_text` says whether gen_op_item already turned a bool into its string.
Cell StatCell(const JsonValue* v, bool bool_as_text) {
  if (v == nullptr || v->IsNull()) return Cell::None();
  if (v->IsBool()) {
    return bool_as_text ? Cell::Text(std::string(PythonBoolStr(v->GetBool()))) : Cell::Bool(v->GetBool());
  }
  if (v->IsInt64()) return Cell::Int(v->GetInt64());
  if (v->IsDouble()) return std::isnan(v->GetDouble()) ? Cell::Nan() : Cell::Float(v->GetDouble());
  if (v->IsString()) return Cell::Text(std::string(StringOf(*v)));
  return Cell::Text(PythonStr(*v));  // uint64 past int64, lists, dicts
}

// "%08x" % zlib.crc32(text): the md5 msprobe gives a leaf that has none.
std::string Crc32Hex(std::string_view text) {
  uLong crc = crc32(0L, Z_NULL, 0);
  crc = crc32(crc, reinterpret_cast<const Bytef*>(text.data()), static_cast<uInt>(text.size()));
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex(8, '0');
  for (int i = 7; i >= 0; --i, crc >>= 4) hex[static_cast<size_t>(i)] = kDigits[crc & 0xF];
  return hex;
}

// Fills the row of a None argument (rows are filled where they stay: they are large).
void FillNoneRow(std::string name, RowState state, OpRow* out) {
  OpRow& row = *out;
  row.name = std::move(name);
  row.state = state;
  row.dtype = "None";
  row.shape = "None";
  row.stats = {Cell::None(), Cell::None(), Cell::None(), Cell::None()};
  // msprobe's md5 is None here and pandas' fillna shows it as N/A.
  row.md5 = "N/A";
}

// The members gen_op_item reads, found in one pass over the leaf (it has a dozen members, and a
// lookup per key would scan them a dozen times). A repeated key keeps its last value, as Member()
// and Python's json.load.
struct LeafMembers {
  std::array<const JsonValue*, 4> stats{};  // Max, Min, Mean, Norm
  const JsonValue *data_name = nullptr, *requires_grad = nullptr, *md5 = nullptr, *dtype = nullptr,
                  *value = nullptr, *type = nullptr, *shape = nullptr, *group_ranks = nullptr;

  explicit LeafMembers(const JsonValue& leaf) {
    if (!leaf.IsObject()) return;
    for (const auto& member : leaf.GetObject()) {
      if (const JsonValue** slot = Slot(StringOf(member.name)); slot != nullptr) {
        *slot = &member.value;
      }
    }
  }

 private:
  // Length first, then the bytes with a memcmp of known size, which the compiler inlines: string_view's
  // == calls compare() out of line whenever the lengths agree, and a statistics dump has millions of
  // keys.
  template <size_t N>
  static bool Is(std::string_view key, const char (&name)[N]) {
    return key.size() == N - 1 && std::memcmp(key.data(), name, N - 1) == 0;
  }

  const JsonValue** Slot(std::string_view key) {
    if (Is(key, "Max")) return &stats[0];
    if (Is(key, "Min")) return &stats[1];
    if (Is(key, "Mean")) return &stats[2];
    if (Is(key, "Norm")) return &stats[3];
    if (Is(key, "data_name")) return &data_name;
    if (Is(key, "requires_grad")) return &requires_grad;
    if (Is(key, "md5")) return &md5;
    if (Is(key, "dtype")) return &dtype;
    if (Is(key, "value")) return &value;
    if (Is(key, "type")) return &type;
    if (Is(key, "shape")) return &shape;
    if (Is(key, "group_ranks")) return &group_ranks;
    return nullptr;
  }
};

// gen_op_item: one row from a leaf object (docs/compare.md §2.3), filled into a default row.
void FillLeafRow(const JsonValue& leaf, const std::string& name, RowState state, OpRow* out) {
  OpRow& row = *out;
  row.state = state;
  const LeafMembers m(leaf);
  for (size_t i = 0; i < m.stats.size(); ++i) row.stats[i] = StatCell(m.stats[i], true);

  const JsonValue* data_name = m.data_name;
  if (Truthy(data_name)) {
    row.data_name = data_name->IsString() ? std::string(StringOf(*data_name)) : PythonStr(*data_name);
  }
  if (std::string_view(row.data_name) != "-1") {
    const size_t dot = row.data_name.rfind('.');
    row.name = dot == std::string::npos ? row.data_name : row.data_name.substr(0, dot);
  } else {
    row.name = name;
  }

  const JsonValue* requires_grad = m.requires_grad;
  if (requires_grad != nullptr && !requires_grad->IsNull()) row.requires_grad = PythonStr(*requires_grad);

  const JsonValue* md5 = m.md5;
  bool has_md5 = TruthyAfterBoolToStr(md5);
  if (has_md5) row.md5 = PythonStr(*md5);

  const JsonValue* dtype = m.dtype;
  const JsonValue* value = m.value;
  const JsonValue* type_v = m.type;
  const std::string_view type = type_v && type_v->IsString() ? StringOf(*type_v) : std::string_view();
  if (TruthyAfterBoolToStr(dtype)) {
    row.dtype = PythonStr(*dtype);
    row.shape = StrOrNone(m.shape);
  } else if (type == "torch.Size") {
    row.dtype = type;
    row.shape = StrOrNone(value);
  } else if (type == "slice") {
    row.dtype = type;
    row.shape = NumpyShapeStr(value);  // the statistics stay as recorded (normally absent: None)
  } else if (type == "ellipsis") {
    row.dtype = type;
    row.shape = "[]";
    row.stats.fill(StatCell(value, false));
  } else if (const std::string_view last = LastTwoComponents(name)[0];
             last == "src" || last == "dst" || last == "group_src" || last == "group_dst") {
    row.dtype = StrOrNone(type_v);
    row.shape = "[]";
    row.md5 = StrOrNone(value);
    row.stats.fill(Cell::Text(row.md5));
    has_md5 = !row.md5.empty();
  } else if (type == "torch.ProcessGroup") {
    row.dtype = type;
    row.shape = "[]";
    row.md5 = StrOrNone(m.group_ranks);
    row.stats.fill(Cell::Text(row.md5));
    has_md5 = !row.md5.empty();
  } else {
    row.dtype = PythonTypeStr(value);
    row.shape = "[]";
    row.stats.fill(StatCell(value, false));
  }
  // op_data.get('value', ''): a missing value hashes "", a null one "None".
  if (!has_md5) row.md5 = Crc32Hex(value ? PythonStr(*value) : std::string());
}

// op_item_parse: the rows of one argument value, depth-first in JSON order. `name_path` holds the
// value's name, which a child's extends in place while its rows are read (one string for all of an
// entry's names, not one per level); it is as it was on return.
Status ParseItem(const JsonValue& v, std::string* name_path, RowState state, int depth, const std::string& source,
                 std::vector<OpRow>* rows) {
  const std::string& name = *name_path;
  if (depth > kMaxParseDepth) {
    return Status::InvalidInput(source, fmt::format("parse of '{}' exceeds the recursion limit of {}", name,
                                                    kMaxParseDepth));
  }
  if (v.IsNull()) {
    FillNoneRow(name, state, &rows->emplace_back());
    return Status::Ok();
  }
  if (!Truthy(&v)) return Status::Ok();
  if (v.IsArray()) {
    // Parameter-gradient lists hold one tensor each; msprobe names it after the parameter alone.
    const bool keep_name = HasComponent(name, kParamsGrad);
    const size_t length = name.size();
    for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
      if (!keep_name) {
        const fmt::format_int index(i);
        name_path->push_back('.');
        name_path->append(index.data(), index.size());
      }
      const Status status = ParseItem(v[i], name_path, state, depth + 1, source, rows);
      name_path->resize(length);
      MSP_RETURN_IF_ERROR(status);
    }
    return Status::Ok();
  }
  if (!v.IsObject()) return Status::Ok();  // a bare scalar is not an argument encoding
  const char* class_type = StringMember(v, "class_type");
  if (class_type && std::string_view(class_type) == "torch.distributed.P2POp") {
    const JsonValue* tensor = Member(v, "tensor");
    OpRow& row = rows->emplace_back();
    if (tensor && tensor->IsObject()) {
      FillLeafRow(*tensor, name, state, &row);
    } else {
      FillNoneRow(name, state, &row);
    }
    row.p2p = std::make_shared<const P2pOpFields>(P2pOpFields{StrOrNone(Member(v, "op")), StrOrNone(Member(v, "peer"))});
    return Status::Ok();
  }
  if (StringMember(v, "type") != nullptr) {
    FillLeafRow(v, name, state, &rows->emplace_back());
    return Status::Ok();
  }
  const size_t length = name.size();
  for (const auto& m : v.GetObject()) {
    name_path->push_back('.');
    name_path->append(StringOf(m.name));
    const Status status = ParseItem(m.value, name_path, state, depth + 1, source, rows);
    name_path->resize(length);
    MSP_RETURN_IF_ERROR(status);
  }
  return Status::Ok();
}

// read_op: the rows of one data entry, in parse order (before reordering).
Status ReadEntry(const JsonValue& value, const std::string& key, const std::string& source, std::vector<OpRow>* rows) {
  const auto [last, prev] = LastTwoComponents(key);
  std::string name = key;
  if (last == "debug") return ParseItem(value, &name, RowState::kDebug, 0, source, rows);
  if (last == kParamsGrad || prev == kParamsGrad) {
    return ParseItem(value, &name, RowState::kParametersGrad, 0, source, rows);
  }
  MSP_RETURN_IF_ERROR(CheckEntryShape(key, value, source));
  name.reserve(key.size() + 32);  // room for the suffix and a few levels, so that it is not grown
  for (const IoField& field : kIoFields) {
    if (const JsonValue* v = Member(value, field.key)) {
      name.resize(key.size());
      name += field.suffix;
      MSP_RETURN_IF_ERROR(ParseItem(*v, &name, field.state, 0, source, rows));
    }
  }
  return Status::Ok();
}

}  // namespace

KeyParts SplitKey(std::string_view key, bool is_debug) {
  if (is_debug) return {std::string(key), std::string(key), std::string(key)};
  const auto [last, prev] = LastTwoComponents(key);
  const bool has_dot = last.data() != key.data(), has_two_dots = has_dot && prev.data() != key.data();
  // ".".join(parts[:-n]): the key before one of its last components.
  const auto before = [&](std::string_view part) {
    return std::string(key.substr(0, static_cast<size_t>(part.data() - key.data()) - 1));
  };
  if (last == kParamsGrad || prev == kParamsGrad) {
    return {has_dot ? before(last) : "", std::string(kParamsGrad), std::string(kParamsGrad)};
  }
  for (std::string_view direction : {"forward", "backward"}) {
    if (last == direction || prev == direction) {
      return {has_two_dots ? before(prev) : "", std::string(prev) + '.' + std::string(last), std::string(direction)};
    }
  }
  return {};
}

bool MayBeBackwardKey(std::string_view key) {
  const auto [last, prev] = LastTwoComponents(key);
  return last == "backward" || prev == "backward";
}

std::string NameSuffix(const OpRow& row) { return PythonReplace(row.name, row.api, ""); }

namespace {

// reorder_index: inputs (and debug rows), then parameters, outputs, parameter gradients.
int OrderClass(RowState s) {
  switch (s) {
    case RowState::kParameters: return 1;
    case RowState::kOutput: return 2;
    case RowState::kParametersGrad: return 3;
    default: return 0;
  }
}

// load_stack_json: entry name → stack list, from either stack.json format (docs/compare.md §2.5).
Result<std::unordered_map<std::string, const JsonValue*>> IndexStacks(const JsonValue& stack,
                                                                       const std::string& stack_source) {
  if (!stack.IsObject()) return Status::InvalidInput(stack_source, "stack.json is not a JSON object");
  std::unordered_map<std::string, const JsonValue*> index;
  if (!Truthy(Member(stack, "0"))) {  // old format: {entry: [lines]}
    for (const auto& m : stack.GetObject()) index[std::string(StringOf(m.name))] = &m.value;
    return index;
  }
  for (const auto& m : stack.GetObject()) {  // new format: {"0": [[entries], [lines]], ...}
    const JsonValue& group = m.value;
    if (!group.IsArray() || group.Size() != 2 || !group[0].IsArray()) {  // its stack would be lost unseen
      return Status::InvalidInput(stack_source, fmt::format("group '{}' is not a pair [[API names], [stack lines]]; "
                                                            "is stack.json from msprobe's dump?", StringOf(m.name)));
    }
    for (const auto& api : group[0].GetArray()) {
      if (api.IsString()) index[std::string(StringOf(api))] = &group[1];
    }
  }
  return index;
}

// md5_find (docs/compare.md §2.1) for one entry of `data`: whether a statistics dump holds md5 (CRC-32)
// summaries. A debug.json is searched everywhere; a dump.json only in each entry's fields and their
// list items.
bool EntryHasMd5(std::string_view key, const JsonValue& entry, bool is_debug) {
  if (is_debug) {
    if (key == "md5") return true;
    std::vector<const JsonValue*> todo = {&entry};
    while (!todo.empty()) {
      const JsonValue* v = todo.back();
      todo.pop_back();
      if (v->IsObject()) {
        if (v->HasMember("md5")) return true;
        for (const auto& m : v->GetObject()) todo.push_back(&m.value);
      } else if (v->IsArray()) {
        for (const auto& e : v->GetArray()) todo.push_back(&e);
      }
    }
    return false;
  }
  // Python's `"md5" in x`: a dict key, a substring, or a list element.
  const auto contains_md5 = [](const JsonValue& v) {
    if (v.IsObject()) return v.HasMember("md5");
    if (v.IsString()) return StringOf(v).find("md5") != std::string_view::npos;
    if (v.IsArray()) {
      return std::any_of(v.Begin(), v.End(), [](const JsonValue& e) { return e.IsString() && StringOf(e) == "md5"; });
    }
    return false;
  };
  if (!entry.IsObject()) return false;
  for (const auto& field : entry.GetObject()) {
    const JsonValue& v = field.value;
    if (v.IsArray()) {
      if (std::any_of(v.Begin(), v.End(), [&](const JsonValue& e) { return Truthy(&e) && contains_md5(e); })) {
        return true;
      }
    } else if (!v.IsBool() && Truthy(&v) && contains_md5(v)) {
      return true;
    }
  }
  return false;
}

}  // namespace

CallOrder CallCounter::Next(const KeyParts& parts) {
  auto& [forward, backward] = counts_[parts.op_no_number];
  const CallOrder order{forward, backward};
  if (parts.direction == "forward") ++forward;
  if (parts.direction == "backward") ++backward;
  return order;
}

bool ReadsAsDebugJson(const std::string& json_path, std::string_view level) {
  const std::string name = std::filesystem::path(json_path).filename().string();
  return name == "debug.json" || (name != "dump.json" && level == "debug");
}

namespace {

// Flattens a dump one `data` entry at a time, so a streamed file never needs its whole document.
class Flattener : public DumpJsonVisitor {
 public:
  Flattener(const std::string& source, const std::string& stack_source) : source_(source), stack_source_(stack_source) {
    dump_.json_path = source;
    dump_.is_debug = ReadsAsDebugJson(source, "");
  }

  // The entries come with their call orders given, one per entry in turn (they are some of a dump's).
  void GiveOrders(const std::vector<CallOrder>* orders) { given_orders_ = orders; }
  void Keep(EntryFilter keep) { keep_ = std::move(keep); }
  bool has_md5() const { return has_md5_; }

  // Rows go into `storage` (its rows dropped, its capacity kept), with room for `rows` of them.
  void Reserve(std::vector<OpRow> storage, size_t rows) {
    dump_.rows = std::move(storage);
    dump_.rows.clear();
    internal::ReserveWithSlack(&dump_.rows, rows);
  }

  // The stack.json next to the target json ("" for none), read and indexed; the flattener keeps it.
  Status ReadStack(const std::string& stack_json) {
    if (stack_json.empty()) return Status::Ok();
    MSP_ASSIGN_OR_RETURN(stack_document_, ReadJsonFile(stack_json));
    return IndexStack(stack_document_);
  }

  Status IndexStack(const JsonValue& stack) {
    if (!JsonDepthAtMost(stack, kMaxJsonDepth)) {
      return Status::InvalidInput(stack_source_, fmt::format("JSON nested deeper than {} levels", kMaxJsonDepth));
    }
    MSP_ASSIGN_OR_RETURN(stacks_, IndexStacks(stack, stack_source_));
    return Status::Ok();
  }

  Status Member(std::string_view key, const JsonValue& v) override {
    if (key == "data" && !v.IsObject()) return Status::InvalidInput(source_, "data is missing or not an object");
    return Status::Ok();
  }

  // Rows go to `sink` in batches of whole entries once `batch_rows` have gathered, and at the end.
  void StreamTo(size_t batch_rows, const FlatRowSink* sink) {
    batch_rows_ = batch_rows;
    sink_ = sink;
  }

  // The level read so far decides how the entries' keys are read; a streamed dump's batches carry
  // the header as it stands here.
  Status Data(const DumpJsonHeader& header) override {
    NoteLevel(header.level);
    dump_.task = header.task;
    dump_.level = header.level;
    dump_.framework = header.framework;
    return Status::Ok();
  }

  Status Entry(std::string_view key_view, const JsonValue& value) override {
    if (!JsonDepthAtMost(value, kMaxJsonDepth - 2)) {
      return Status::InvalidInput(source_, fmt::format("JSON nested deeper than {} levels", kMaxJsonDepth));
    }
    const std::string key(key_view);
    has_md5_ = has_md5_ || EntryHasMd5(key, value, dump_.is_debug);
    if (keep_ && !keep_(key)) return Status::Ok();
    // The entry's rows go straight to their place at the end of the dump.
    const auto first_row = static_cast<std::ptrdiff_t>(dump_.rows.size());
    MSP_RETURN_IF_ERROR(ReadEntry(value, key, source_, &dump_.rows));
    const auto entry_begin = [&] { return dump_.rows.begin() + first_row; };  // valid once the rows are read
    const JsonValue* stack_lines = nullptr;
    if (const auto it = stacks_.find(key); it != stacks_.end() && !it->second->IsNull()) {
      if (!it->second->IsArray()) {
        return Status::InvalidInput(stack_source_, fmt::format("stack of '{}' is not a list", key));
      }
      stack_lines = it->second;
    }
    KeyParts parts = SplitKey(key, dump_.is_debug);
    if (parts.op_no_number.empty()) {  // neither forward, backward nor parameters_grad
      dump_.rows.erase(entry_begin(), dump_.rows.end());
      return Status::Ok();
    }
    const CallOrder order = given_orders_ ? given_orders_->at(entries_++) : call_counts_.Next(parts);
    if (std::optional<ScratchEntry> scratch = ScratchEntryOf(key, value)) dump_.scratch_entries.push_back(*scratch);

    // read_op gives inputs, outputs, then parameters: a stable sort by OrderClass puts the
    // parameters before the outputs. Most entries have none and are in order already.
    const auto by_class = [](const OpRow& a, const OpRow& b) { return OrderClass(a.state) < OrderClass(b.state); };
    if (!std::is_sorted(entry_begin(), dump_.rows.end(), by_class)) {
      std::stable_sort(entry_begin(), dump_.rows.end(), by_class);
    }
    bool first = true;
    for (auto row = entry_begin(); row != dump_.rows.end(); ++row) {
      FinishRow(&*row, key, order, first ? stack_lines : nullptr);
      first = false;
    }
    return dump_.rows.size() >= batch_rows_ ? Flush() : Status::Ok();
  }

  // The key-derived fields every row of an entry shares; the stack goes on the entry's first row.
  static void FinishRow(OpRow* row, const std::string& key, CallOrder order, const JsonValue* stack_lines) {
    row->api = key;
    row->forward_call_order = order.forward;
    row->backward_call_order = order.backward;
    if (stack_lines != nullptr) row->stack_info = PythonStr(*stack_lines);
  }

  // Hands the rows gathered so far to the sink (StreamTo).
  Status Flush() {
    if (sink_ == nullptr || dump_.rows.empty()) return Status::Ok();
    MSP_RETURN_IF_ERROR((*sink_)(dump_, &dump_.rows));
    dump_.rows.clear();
    // The sink may have taken the storage: room for a batch again, so it is not grown step by step
    // (unless the batch is all the rows: StreamFlatEntries' last flush).
    if (dump_.rows.capacity() == 0 && batch_rows_ != std::numeric_limits<size_t>::max()) {
      dump_.rows.reserve(batch_rows_ + batch_rows_ / 8);
    }
    return Status::Ok();
  }

  Result<FlatDump> Finish(Result<DumpJsonHeader> header) && {
    if (!header.ok()) return header.status();
    if (sink_ != nullptr) MSP_RETURN_IF_ERROR(Flush());
    if (header->task.empty()) return Status::InvalidInput(source_, "task is missing or empty");
    if (!header->has_data) return Status::InvalidInput(source_, "data is missing or not an object");
    dump_.task = std::move(header->task);
    dump_.level = std::move(header->level);
    dump_.framework = std::move(header->framework);
    NoteLevel(dump_.level);  // a level after "data" names the dump, as before it
    if (dump_.task == "tensor") {
      dump_.mode = CompareMode::kTensor;
    } else if (dump_.task == "statistics") {
      dump_.mode = has_md5_ ? CompareMode::kMd5 : CompareMode::kSummary;
    } else if (dump_.task == "structure") {
      return Status::InvalidInput(source_, "task structure holds no data to compare");
    } else {
      return Status::InvalidInput(source_, fmt::format("task {} is not comparable (compare needs tensor or statistics)",
                                                       dump_.task));
    }
    return std::move(dump_);
  }

 private:
  // Ours: a json with level "debug" not named dump.json is read as a debug.json.
  void NoteLevel(std::string_view level) {
    if (ReadsAsDebugJson(source_, level)) dump_.is_debug = true;
  }

  const std::string& source_;
  const std::string& stack_source_;
  FlatDump dump_;
  size_t batch_rows_ = std::numeric_limits<size_t>::max();
  const FlatRowSink* sink_ = nullptr;
  bool has_md5_ = false;
  JsonDocument stack_document_;  // ReadStack's; stacks_ points into it
  std::unordered_map<std::string, const JsonValue*> stacks_;
  CallCounter call_counts_;
  const std::vector<CallOrder>* given_orders_ = nullptr;
  size_t entries_ = 0;  // of given_orders_, the entries read
  EntryFilter keep_;
};

}  // namespace

Result<FlatDump> FlattenDocument(const JsonValue& root, const JsonValue* stack, const std::string& source) {
  const std::string stack_source = "stack.json";
  Flattener flattener(source, stack_source);
  if (stack != nullptr) MSP_RETURN_IF_ERROR(flattener.IndexStack(*stack));
  return std::move(flattener).Finish(VisitDumpJson(root, source, flattener));
}

namespace {

Result<FlatDump> Flatten(const std::string& json_path, const std::string& stack_json, std::vector<OpRow> storage,
                         size_t batch_rows, const FlatRowSink* sink, EntryFilter keep = {}) {
  Flattener flattener(json_path, stack_json);
  flattener.Keep(std::move(keep));
  flattener.StreamTo(batch_rows, sink);
  std::error_code ec;
  // msprobe's indent-1 json spends about 250 bytes on a tensor row, fewer on a scalar: reserve for
  // rows of 160 bytes (capped) so that the rows are not moved, and their memory touched twice, as
  // they grow. Untouched capacity costs no memory.
  const uintmax_t bytes = std::filesystem::file_size(json_path, ec);
  const uintmax_t rows = std::min<uintmax_t>(ec ? 0 : bytes / 160, uintmax_t{4} << 20);
  flattener.Reserve(std::move(storage), sink ? std::min<uintmax_t>(rows, batch_rows + 4096) : rows);
  MSP_RETURN_IF_ERROR(flattener.ReadStack(stack_json));
  // A whole dump's entries are parsed on a second core while the first flattens them; a streamed
  // one's parse already has a thread of its own beside the sink's work (docs/compare.md §6.1).
  const EntryParsing parsing = sink ? EntryParsing::kInline : EntryParsing::kAhead;
  return std::move(flattener).Finish(StreamDumpJson(json_path, flattener, parsing));
}

}  // namespace

Result<FlatDump> FlattenDump(const std::string& json_path, const std::string& stack_json,
                             std::vector<OpRow> storage, EntryFilter keep) {
  return Flatten(json_path, stack_json, std::move(storage), std::numeric_limits<size_t>::max(), nullptr,
                 std::move(keep));
}

Result<FlatDump> StreamFlatDump(const std::string& json_path, const std::string& stack_json, size_t batch_rows,
                                const FlatRowSink& sink, std::vector<OpRow> storage) {
  return Flatten(json_path, stack_json, std::move(storage), batch_rows, &sink);
}

std::vector<CallOrder> EntryCallOrders(const std::vector<JsonMemberSpan>& entries, bool is_debug) {
  CallCounter counter;
  std::vector<CallOrder> orders;
  orders.reserve(entries.size());
  for (const JsonMemberSpan& entry : entries) orders.push_back(counter.Next(SplitKey(entry.key, is_debug)));
  return orders;
}

Status StreamFlatEntries(const std::string& json_path, const std::string& stack_json, const DumpJsonHeader& at_data,
                         const std::vector<JsonMemberSpan>& entries, const std::vector<CallOrder>& orders,
                         size_t batch_rows, const FlatRowSink& sink, bool* has_md5) {
  Flattener flattener(json_path, stack_json);
  flattener.GiveOrders(&orders);
  flattener.StreamTo(batch_rows, &sink);
  flattener.Reserve({}, 0);
  MSP_RETURN_IF_ERROR(flattener.ReadStack(stack_json));
  MSP_RETURN_IF_ERROR(StreamDumpJsonEntries(json_path, at_data, entries, flattener));
  *has_md5 = flattener.has_md5();
  return flattener.Flush();
}

Result<FlatDump> StreamFlatDumpAhead(const std::string& json_path, const std::string& stack_json, size_t batch_rows,
                                     const FlatRowSink& sink) {
  struct Batch {
    FlatDump header;
    std::vector<OpRow> rows;
  };
  std::mutex mutex;
  std::condition_variable changed;
  std::optional<Batch> ready;  // parsed, waiting for the sink
  bool parsed = false, stopped = false;
  Result<FlatDump> result = Status::Internal(json_path, "not parsed");
  std::exception_ptr thrown;
  std::thread parser([&] {
    try {
      result = StreamFlatDump(json_path, stack_json, batch_rows, [&](const FlatDump& header, std::vector<OpRow>* rows) {
        std::unique_lock<std::mutex> lock(mutex);
        changed.wait(lock, [&] { return !ready || stopped; });
        if (stopped) return Status::Internal(json_path, "stopped");
        ready = Batch{FlatDump{header.json_path, header.task, header.level, header.framework, header.is_debug,
                               header.mode, {}, {}},
                      std::move(*rows)};
        changed.notify_all();
        return Status::Ok();
      });
    } catch (...) {
      thrown = std::current_exception();
    }
    const std::lock_guard<std::mutex> lock(mutex);
    parsed = true;
    changed.notify_all();
  });
  // However the sink's side ends (an error, an exception), the parser stops at its next batch and
  // is joined before the state it shares goes away.
  const auto stop = [&] {
    {
      const std::lock_guard<std::mutex> lock(mutex);
      stopped = true;
    }
    changed.notify_all();
    if (parser.joinable()) parser.join();
  };
  struct StopOnExit {
    const decltype(stop)& run;
    ~StopOnExit() { run(); }
  } stop_on_exit{stop};
  Status status;
  for (;;) {
    std::optional<Batch> batch;
    {
      std::unique_lock<std::mutex> lock(mutex);
      changed.wait(lock, [&] { return ready || parsed; });
      if (!ready) break;
      batch = std::move(ready);
      ready.reset();
      changed.notify_all();
    }
    status = sink(batch->header, &batch->rows);
    if (!status.ok()) break;
  }
  stop();
  if (thrown) std::rethrow_exception(thrown);
  MSP_RETURN_IF_ERROR(status);
  return result;
}

}  // namespace msprobe::compare
