#include "common/single_dash_flags.h"

namespace msprobe::cli {

std::vector<std::string> RewriteFlags(int argc, char** argv, const FlagAliases& aliases) {
  std::vector<std::string> out;
  out.reserve(static_cast<size_t>(argc));
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    if (i > 0) {
      for (const auto& [from, to] : aliases) {
        if (arg == from) {
          arg = to;
          break;
        }
        if (arg.size() > from.size() && arg.compare(0, from.size(), from) == 0 && arg[from.size()] == '=') {
          arg = std::string(to) + arg.substr(from.size());
          break;
        }
      }
    }
    out.push_back(std::move(arg));
  }
  return out;
}

ArgvBuffer::ArgvBuffer(std::vector<std::string> args) : args_(std::move(args)) {
  for (std::string& a : args_) pointers_.push_back(a.data());
  pointers_.push_back(nullptr);
}

}  // namespace msprobe::cli
