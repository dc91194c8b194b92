#include "first_diff/overflow_ops_internal.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <optional>
#include <set>

#include "msprobe/compare/first_diff/comm_args.h"
#include "msprobe/compare/first_diff/overflow_check.h"
#include "msprobe/dump/framework/dump_json.h"
#include "msprobe/dump/text/python_format.h"

namespace msprobe::compare {
namespace {

// OverFlowCheckConst.COMMUNICATION_KEYWORDS
constexpr std::array<std::string_view, 19> kCommunicationKeywords = {
    "send", "recv", "broadcast", "all_reduce", "reduce", "all_gather", "gather", "isend", "irecv", "scatter",
    "reduce_scatter", "_reduce_scatter_base", "_all_gather_base", "all_to_all_single", "all_to_all",
    "all_gather_into_tensor", "reduce_scatter_tensor", "send_object_list", "recv_object_list"};
// DIRECTED_API: the direction an int argument naming this rank gives.
constexpr std::array<std::pair<std::string_view, CommDirection>, 9> kDirectedApis = {{
    {"send", CommDirection::kDst}, {"recv", CommDirection::kSrc}, {"isend", CommDirection::kDst},
    {"irecv", CommDirection::kSrc}, {"broadcast", CommDirection::kSrc}, {"scatter", CommDirection::kSrc},
    {"gather", CommDirection::kDst}, {"send_object_list", CommDirection::kDst}, {"recv_object_list", CommDirection::kSrc},
}};

bool IsCommunication(std::string_view name) {
  return name.starts_with("Distributed.") &&
         std::any_of(kCommunicationKeywords.begin(), kCommunicationKeywords.end(),
                     [&](std::string_view k) { return name.find(k) != std::string_view::npos; });
}

bool IsIgnored(std::string_view name) {
  return name.find("Torch.empty") != std::string_view::npos || name.find("Torch.fill") != std::string_view::npos;
}

// str(v).lower() in ["nan\t", "inf\t", "-inf\t", "nan", "inf", "-inf"]
bool OverflowText(const JsonValue* v) {
  std::string s = v == nullptr ? "none" : PythonStr(*v);
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (std::string_view token : {"nan\t", "inf\t", "-inf\t", "nan", "inf", "-inf"}) {
    if (s == token) return true;
  }
  return false;
}

// Python's `x == rank` for a JSON value: numbers (and bools) by value.
bool EqualsRank(const JsonValue* v, int rank) {
  if (v == nullptr) return false;
  if (v->IsBool()) return (v->GetBool() ? 1 : 0) == rank;
  return v->IsNumber() && v->GetDouble() == rank;
}

const JsonValue* ValueOf(const JsonValue* record) {
  return record != nullptr && record->IsObject() ? Member(*record, "value") : nullptr;
}

// Truthy object member `key` of kwargs (kwargs.get(key) and `if value`).
const JsonValue* TruthyMember(const JsonValue* kwargs, const char* key) {
  const JsonValue* v = kwargs != nullptr && kwargs->IsObject() ? Member(*kwargs, key) : nullptr;
  return v != nullptr && PythonTruthy(*v) ? v : nullptr;
}

bool HasMember(const JsonValue* kwargs, const char* key) {
  return kwargs != nullptr && kwargs->IsObject() && Member(*kwargs, key) != nullptr;
}

// CommunicationNode._resolve_type
CommDirection DirectionOf(std::string_view api, const JsonValue* args, const JsonValue* kwargs, int rank) {
  for (const char* key : {"src", "src_group"}) {
    if (const JsonValue* v = TruthyMember(kwargs, key)) {
      return EqualsRank(ValueOf(v), rank) ? CommDirection::kSrc : CommDirection::kDst;
    }
  }
  for (const char* key : {"dst", "dst_group"}) {
    if (const JsonValue* v = TruthyMember(kwargs, key)) {
      return EqualsRank(ValueOf(v), rank) ? CommDirection::kDst : CommDirection::kSrc;
    }
  }
  const auto directed = std::find_if(kDirectedApis.begin(), kDirectedApis.end(), [&](const auto& d) { return d.first == api; });
  if (directed != kDirectedApis.end() && args != nullptr && args->IsArray()) {
    for (const JsonValue& item : args->GetArray()) {
      const char* type = item.IsObject() ? StringMember(item, "type") : nullptr;
      if (type == nullptr || std::string_view(type) != "int") continue;
      if (EqualsRank(ValueOf(&item), rank)) return directed->second;
      return directed->second == CommDirection::kSrc ? CommDirection::kDst : CommDirection::kSrc;
    }
  }
  return CommDirection::kLink;
}

// CommunicationNode.find_connected_nodes' ranks: dst/src kwargs (the first of each pair present), else
// the int arguments, then the group's ranks.
std::vector<int> PeersOf(const JsonValue* args, const JsonValue* kwargs) {
  std::set<int> ranks;
  for (const auto& keys : {std::array<const char*, 2>{"dst", "dst_group"}, std::array<const char*, 2>{"src", "src_group"}}) {
    for (const char* key : keys) {
      if (!HasMember(kwargs, key)) continue;
      if (const JsonValue* v = TruthyMember(kwargs, key)) {
        if (const std::optional<int> r = RankOf(ValueOf(v))) ranks.insert(*r);
      }
      break;
    }
  }
  if (ranks.empty() && args != nullptr && args->IsArray()) {
    for (const JsonValue& item : args->GetArray()) {
      const char* type = item.IsObject() ? StringMember(item, "type") : nullptr;
      if (type == nullptr || std::string_view(type) != "int") continue;
      if (const std::optional<int> r = RankOf(ValueOf(&item))) ranks.insert(*r);
    }
  }
  if (const JsonValue* group = TruthyMember(kwargs, "group")) {
    if (const std::optional<std::vector<int>> members = ProcessGroupRanks(*group)) ranks.insert(members->begin(), members->end());
  }
  return {ranks.begin(), ranks.end()};
}

// Reads a rank's entries, and the members the check looks at.
class OverflowReader : public DumpJsonVisitor {
 public:
  OverflowReader(OverflowRank* rank, std::string source) : rank_(rank), source_(std::move(source)) {}

  Status Member(std::string_view key, const JsonValue& value) override {
    if (key == "framework") rank_->framework = value.IsString() ? std::string(value.GetString(), value.GetStringLength()) : "";
    return Status::Ok();
  }
  Status Entry(std::string_view key, const JsonValue& value) override {
    rank_->has_data = true;
    MSP_ASSIGN_OR_RETURN(OverflowOp op, ReadOverflowOp(key, value, rank_->rank, source_));
    rank_->ops.push_back(std::move(op));
    return Status::Ok();
  }

 private:
  OverflowRank* rank_;
  std::string source_;
};

}  // namespace

bool ItemsOverflow(const JsonValue* param) {
  if (param == nullptr) return false;
  const auto item_overflows = [](const JsonValue& item) {
    return item.IsObject() && (OverflowText(Member(item, "Max")) || OverflowText(Member(item, "Min")));
  };
  if (param->IsArray()) return std::any_of(param->Begin(), param->End(), item_overflows);
  if (param->IsObject()) {
    for (const auto& m : param->GetObject()) {
      if (item_overflows(m.value)) return true;
    }
  }
  return false;
}

Result<OverflowOp> ReadOverflowOp(std::string_view key, const JsonValue& entry, int rank, const std::string& source) {
  OverflowOp op;
  op.name = std::string(key);
  op.communication = IsCommunication(key);
  op.ignored = IsIgnored(key);
  const auto field = [&](const char* name) { return entry.IsObject() ? Member(entry, name) : nullptr; };
  const JsonValue *args = field("input_args"), *kwargs = field("input_kwargs");
  op.inputs_overflow = ItemsOverflow(args) || ItemsOverflow(kwargs);
  const bool output = ItemsOverflow(field("output"));
  op.any_overflow = op.inputs_overflow || output;
  op.anomaly = !op.ignored && !op.inputs_overflow && !ItemsOverflow(field("input")) && output;
  if (!op.communication) return op;
  const size_t parts = static_cast<size_t>(std::count(key.begin(), key.end(), '.')) + 1;
  if (parts < 4) return Status::InvalidInput(source, fmt::format("invalid op_name: {}", key));
  op.direction = DirectionOf(CommApiOf(key), args, kwargs, rank);
  op.peers = PeersOf(args, kwargs);
  return op;
}

Result<size_t> CountOverflowAnomalies(std::string_view dump_json, int rank, const std::string& source) {
  OverflowRank out;
  out.rank = rank;
  OverflowReader reader(&out, source);
  MSP_RETURN_IF_ERROR(StreamDumpJsonText(dump_json, source, reader).status());
  return static_cast<size_t>(std::count_if(out.ops.begin(), out.ops.end(), [](const OverflowOp& op) { return op.anomaly; }));
}

Result<OverflowRank> ReadOverflowRank(int rank, const std::string& dir) {
  OverflowRank out;
  out.rank = rank;
  out.dir = dir;
  const std::string json = (std::filesystem::path(dir) / "dump.json").string();
  OverflowReader reader(&out, json);
  MSP_RETURN_IF_ERROR(StreamDumpJson(json, reader).status());
  return out;
}

}  // namespace msprobe::compare
