#include "msprobe/compare/report/string_pool.h"

namespace msprobe::compare {

uint32_t StringPool::Intern(std::string_view text) {
  if (auto it = index_.find(text); it != index_.end()) return it->second;
  const auto index = static_cast<uint32_t>(strings_.size());
  strings_.emplace_back(text);
  index_.emplace(strings_.back(), index);
  return index;
}

}  // namespace msprobe::compare
