// Repeated strings of a report (dtypes, shapes, error messages, name tails) stored once: each row keeps
// a 4-byte index into the pool instead of its own copy, and the page receives each text once.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace msprobe::compare {

class StringPool {
 public:
  // The index of `text`, added on first sight.
  uint32_t Intern(std::string_view text);
  // The same, trying `*last` first and setting it: a column whose rows repeat the previous row's text
  // (a dtype, a shape, an empty message) then needs no lookup.
  uint32_t Intern(std::string_view text, uint32_t* last) {
    if (*last >= strings_.size() || strings_[*last] != text) *last = Intern(text);
    return *last;
  }
  const std::vector<std::string>& strings() const { return strings_; }

 private:
  // Transparent lookup: a string_view finds its entry without building a std::string.
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::vector<std::string> strings_;
  std::unordered_map<std::string, uint32_t, Hash, std::equal_to<>> index_;
};

}  // namespace msprobe::compare
