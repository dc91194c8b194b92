#include "trend/dump_entry_internal.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>

#include "msprobe/dump/text/python_format.h"
#include "trend/dotted_name_internal.h"
#include "trend/python_dict_internal.h"
#include "trend/trend_value_internal.h"

namespace msprobe::compare::internal {
namespace {

enum Metric : int { kForward = 1, kBackward = 2, kRecompute = 3, kParametersGrad = 4 };

std::string_view View(const JsonValue& v) { return {v.GetString(), v.GetStringLength()}; }

bool Contains(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

// Whether `key` names the phase (".forward" or ".backward") as a part or at its end; if so, the key
// with the phase taken out.
std::optional<std::string> WithoutPhase(std::string_view key, std::string_view phase) {
  const std::string inner = std::string(phase) + '.';
  if (!Contains(key, inner) && !key.ends_with(phase)) return std::nullopt;
  return PythonReplace(PythonReplace(key, inner, "."), phase, "");
}

bool KeptTensor(const JsonValue& v) {
  static constexpr std::array<std::string_view, 3> kTypes = {"torch.Tensor", "mindspore.Tensor", "mindtorch.Tensor"};
  static constexpr std::array<std::string_view, 6> kDtypes = {"Float16",       "Float32",       "BFloat16",
                                                              "torch.float16", "torch.float32", "torch.bfloat16"};
  if (!v.IsObject()) return false;
  const JsonValue* type = Member(v, "type");
  const JsonValue* dtype = Member(v, "dtype");
  if (type == nullptr || dtype == nullptr || !type->IsString() || !dtype->IsString()) return false;
  return std::find(kTypes.begin(), kTypes.end(), View(*type)) != kTypes.end() &&
         std::find(kDtypes.begin(), kDtypes.end(), View(*dtype)) != kDtypes.end();
}

// input_args, output, input: the list's kept tensors as "<side>.<position>"; positions count the
// items skipped.
void VisitList(const JsonValue& entry, const char* key, std::string_view side, const TensorVisitor& visit) {
  const JsonValue* list = Member(entry, key);
  if (list == nullptr || !list->IsArray()) return;
  for (rapidjson::SizeType i = 0; i < list->Size(); ++i) {
    if (KeptTensor((*list)[i])) visit(fmt::format(".{}.{}", side, i), (*list)[i]);
  }
}

// parameters of a forward entry, or a parameters_grad entry itself: name -> [tensor, ...], of which
// the first tensor counts.
void VisitNamedLists(const JsonValue& object, std::string_view prefix, const TensorVisitor& visit) {
  for (const auto& [name, value] : DictItems(object)) {
    if (!value->IsArray() || value->Empty() || !KeptTensor((*value)[0])) continue;
    visit(fmt::format("{}.{}", prefix, name), (*value)[0]);
  }
}

}  // namespace

std::optional<EntryTarget> TargetOfKey(std::string_view key, const JsonValue& entry, const NameMapping& mapping) {
  std::string name(key);
  for (const auto& [from, to] : mapping) name = PythonReplace(name, from, to);
  EntryTarget target;
  if (std::optional<std::string> forward = WithoutPhase(name, ".forward")) {
    const JsonValue* recompute = Member(entry, "is_recompute");
    target.metric = recompute != nullptr && PythonTruthy(*recompute) ? kRecompute : kForward;
    name = std::move(*forward);
  } else if (std::optional<std::string> backward = WithoutPhase(name, ".backward")) {
    target.metric = kBackward;
    name = std::move(*backward);
  } else if (name.ends_with("parameters_grad")) {
    target.metric = kParametersGrad;
    name = PythonReplace(name, ".parameters_grad", "");
  } else {
    std::vector<std::string_view> parts = SplitDots(name);
    if (parts.size() < 3 || parts[parts.size() - 2] != "parameters_grad") return std::nullopt;
    target.metric = kParametersGrad;  // "X.parameters_grad.N", as current msprobe writes it
    name = JoinDots(std::span(parts).first(parts.size() - 2));
  }
  const size_t dot = name.rfind('.');
  const std::string_view last = dot == std::string::npos ? std::string_view(name) : std::string_view(name).substr(dot + 1);
  int64_t call = 0;
  if (AllDigits(last) && std::from_chars(last.data(), last.data() + last.size(), call).ec == std::errc()) {
    target.call = call;
    name.resize(dot == std::string::npos ? 0 : dot);
  }
  target.prefix = std::move(name);
  return target;
}

void ForEachKeptTensor(int metric, const JsonValue& entry, const TensorVisitor& visit) {
  switch (metric) {
    case kForward:
    case kRecompute: {
      VisitList(entry, "input_args", "input", visit);
      VisitList(entry, "output", "output", visit);
      const JsonValue* parameters = Member(entry, "parameters");
      if (parameters != nullptr && parameters->IsObject()) VisitNamedLists(*parameters, ".parameters", visit);
      break;
    }
    case kBackward:
      VisitList(entry, "input", "input", visit);
      VisitList(entry, "output", "output", visit);
      break;
    case kParametersGrad:
      VisitNamedLists(entry, "", visit);
      break;
    default:
      break;
  }
}

}  // namespace msprobe::compare::internal
