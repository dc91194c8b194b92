#include "msprobe/compare/rows/consistent_keys.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <utility>

#include "msprobe/compare/rows/flatten.h"
#include "msprobe/dump/text/python_format.h"

namespace msprobe::compare {
namespace {

constexpr std::array<std::string_view, 3> kFsdpStopModels = {"Qwen2Model", "Qwen3Model", "Qwen3MoeModel"};
constexpr std::array<std::string_view, 1> kMegatronStopModels = {"GPTModel"};

// msprobe's verl/mapping.py: training module names → the rollout's.
constexpr std::array<std::pair<std::string_view, std::string_view>, 5> kFsdpModules = {{
    {"q_proj", "qkv_proj"}, {"k_proj", "qkv_proj"}, {"v_proj", "qkv_proj"},
    {"gate_proj", "gate_up_proj"}, {"up_proj", "gate_up_proj"},
}};
constexpr std::array<std::pair<std::string_view, std::string_view>, 10> kMegatronModules = {{
    {"word_embeddings", "embed_tokens"}, {"self_attention", "self_attn"}, {"linear_qkv", "qkv_proj"},
    {"q_layernorm", "q_norm"}, {"k_layernorm", "k_norm"}, {"core_attention", "attn"}, {"linear_proj", "o_proj"},
    {"router", "gate"}, {"linear_fc1", "gate_up_proj"}, {"linear_fc2", "down_proj"},
}};

bool AllDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// The end of the last match of `layers\.\d+\.` (as `^.*layers\.\d+\.` matches greedily), or npos.
size_t AfterLastLayer(std::string_view s) {
  for (size_t at = s.rfind("layers."); at != std::string_view::npos; at = at == 0 ? std::string_view::npos : s.rfind("layers.", at - 1)) {
    size_t end = at + 7;
    while (end < s.size() && std::isdigit(static_cast<unsigned char>(s[end]))) ++end;
    if (end > at + 7 && end < s.size() && s[end] == '.') return end + 1;
  }
  return std::string_view::npos;
}

// The first layers.N's number (str.extract(r'layers\.(\d+)')), else none.
LayerNumber LayerOf(std::string_view s) {
  for (size_t at = s.find("layers."); at != std::string_view::npos; at = s.find("layers.", at + 1)) {
    size_t begin = at + 7;
    size_t end = begin;
    while (end < s.size() && std::isdigit(static_cast<unsigned char>(s[end]))) ++end;
    if (end > begin) {
      while (begin + 1 < end && s[begin] == '0') ++begin;
      return {std::string(s.substr(begin, end - begin))};
    }
  }
  return {};
}

// re.split('_fsdp_wrapped_module.', s)[-1]: the pattern's '.' is any character.
std::string_view AfterLastFsdpWrapper(std::string_view s) {
  constexpr std::string_view kWrapper = "_fsdp_wrapped_module";
  size_t rest = 0;
  for (size_t at = s.find(kWrapper); at != std::string_view::npos && at + kWrapper.size() < s.size();
       at = s.find(kWrapper, rest)) {
    rest = at + kWrapper.size() + 1;
  }
  return s.substr(rest);
}

// re.sub(r'^.*<a>.<b>\.', '', s): drops everything up to the last "<a>", any character, "<b>.".
std::string_view DropThrough(std::string_view s, std::string_view a, std::string_view b) {
  for (size_t at = s.rfind(a); at != std::string_view::npos; at = at == 0 ? std::string_view::npos : s.rfind(a, at - 1)) {
    const size_t next = at + a.size() + 1;
    if (next + b.size() < s.size() + 1 && s.substr(next, b.size()) == b && next + b.size() < s.size() &&
        s[next + b.size()] == '.') {
      return s.substr(next + b.size() + 1);
    }
  }
  return s;
}

// get_op_module_and_class: the module path (before the class) of a row's op_no_number.
std::string ModuleOf(std::string_view op, ConsistentBackend backend, bool train) {
  std::string_view module_class = op;
  if (train) {
    if (backend == ConsistentBackend::kFsdp) {
      module_class = AfterLastFsdpWrapper(op);
    } else if (const size_t after = AfterLastLayer(op); after != std::string_view::npos) {
      module_class = op.substr(after);
    }
    module_class = DropThrough(module_class, "module", "module");
  } else {
    if (const size_t after = AfterLastLayer(op); after != std::string_view::npos) module_class = op.substr(after);
    if (module_class.starts_with("Module") && module_class.size() > 6 && module_class.substr(7).starts_with("model.")) {
      module_class = module_class.substr(13);
    }
  }
  const size_t dot = module_class.rfind('.');
  return dot == std::string_view::npos ? std::string() : std::string(module_class.substr(0, dot));
}

template <size_t N>
std::string_view Lookup(const std::array<std::pair<std::string_view, std::string_view>, N>& map, std::string_view key) {
  for (const auto& [from, to] : map) {
    if (from == key) return to;
  }
  return key;
}

// process_module_mapping: the rollout's fsdp modules keep their last part; otherwise a module of one
// part stays as it is, a longer one becomes what follows its first dot, through the backend's map.
std::string ModuleMapping(const std::string& module, ConsistentBackend backend, bool train) {
  if (!train && backend == ConsistentBackend::kFsdp) {
    const size_t dot = module.rfind('.');
    return dot == std::string::npos ? module : module.substr(dot + 1);
  }
  const size_t dot = module.find('.');
  if (dot == std::string::npos) return module;
  const std::string_view last = std::string_view(module).substr(dot + 1);
  return std::string(backend == ConsistentBackend::kFsdp ? Lookup(kFsdpModules, last) : Lookup(kMegatronModules, last));
}

// update_forward_call: a forward row's call number (either end of "0.forward" / "forward.0") becomes
// its call order.
std::string RenumberedCall(const std::string& call_direction, const std::string& direction, int order) {
  if (direction != "forward") return call_direction;
  const size_t dot = call_direction.rfind('.');
  if (dot == std::string::npos) return call_direction;
  std::string head = call_direction.substr(0, dot), tail = call_direction.substr(dot + 1);
  if (AllDigits(head)) head = std::to_string(order);
  if (AllDigits(tail)) tail = std::to_string(order);
  return head + "." + tail;
}

}  // namespace

std::string_view ConsistentBackendName(ConsistentBackend backend) {
  switch (backend) {
    case ConsistentBackend::kFsdp: return "fsdp";
    case ConsistentBackend::kMegatron: return "megatron";
    case ConsistentBackend::kNone: break;
  }
  return "";
}

bool VerlParseFilter::operator()(std::string_view key) {
  const std::vector<std::string_view> parts = PythonSplit(key, '.');
  if (parts.size() < 3) {
    parsing_ = false;
    return false;
  }
  const std::string_view module = parts[parts.size() - 3], direction = parts[parts.size() - 2];
  const bool fsdp = backend_ == ConsistentBackend::kFsdp;
  const bool stop = fsdp ? std::find(kFsdpStopModels.begin(), kFsdpStopModels.end(), module) != kFsdpStopModels.end()
                         : std::find(kMegatronStopModels.begin(), kMegatronStopModels.end(), module) != kMegatronStopModels.end();
  // msprobe tests `module in "Embedding"`: a substring of the rule's string.
  const std::string_view begin = fsdp ? "Embedding" : "VocabParallelEmbedding";
  if (stop && direction == "backward") {
    parsing_ = false;
  } else if (begin.find(module) != std::string_view::npos && direction == "forward") {
    parsing_ = true;
  }
  return parsing_;
}

std::vector<ConsistentKey> ConsistentKeys(const std::vector<OpRow>& rows, ConsistentBackend backend, bool train) {
  std::vector<ConsistentKey> keys;
  keys.reserve(rows.size());
  for (const OpRow& row : rows) {
    const KeyParts parts = SplitKey(row.api, false);
    ConsistentKey& key = keys.emplace_back();
    key.call_direction = train ? RenumberedCall(parts.call_direction, parts.direction, row.forward_call_order)
                               : parts.call_direction;
    key.suffix = NameSuffix(row);
    key.layer = LayerOf(parts.op_no_number);
    key.module_mapping = ModuleMapping(ModuleOf(parts.op_no_number, backend, train), backend, train);
  }
  return keys;
}

}  // namespace msprobe::compare
