#include "msprobe/dump/text/name_list.h"

namespace msprobe {

std::string ListNames(const std::vector<std::string>& names, size_t shown) {
  std::string out;
  for (size_t i = 0; i < names.size() && i < shown; ++i) out += (i ? ", " : "") + names[i];
  if (names.size() > shown) out += ", …";
  return out;
}

}  // namespace msprobe
