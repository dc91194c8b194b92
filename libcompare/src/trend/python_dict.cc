#include "trend/python_dict_internal.h"

#include <unordered_map>

namespace msprobe::compare::internal {

std::vector<std::pair<std::string_view, const JsonValue*>> DictItems(const JsonValue& object) {
  std::vector<std::pair<std::string_view, const JsonValue*>> items;
  items.reserve(object.MemberCount());
  std::unordered_map<std::string_view, size_t> at;
  for (const auto& m : object.GetObject()) {
    const std::string_view key(m.name.GetString(), m.name.GetStringLength());
    const auto [it, fresh] = at.emplace(key, items.size());
    if (fresh) {
      items.emplace_back(key, &m.value);
    } else {
      items[it->second].second = &m.value;
    }
  }
  return items;
}

}  // namespace msprobe::compare::internal
