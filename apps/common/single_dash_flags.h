// msprobe's argparse flags are single-dash long names (-tp, -gp, -fm …), which Debian 12's CLI11 2.1
// rejects; this rewrites them to their double-dash forms through one alias table before parsing.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace msprobe::cli {

using FlagAliases = std::vector<std::pair<std::string_view, std::string_view>>;

// argv with every exact alias (or "alias=value") replaced; argv[0] kept.
std::vector<std::string> RewriteFlags(int argc, char** argv, const FlagAliases& aliases);

// Holds rewritten arguments as a mutable argc/argv pair for CLI11.
class ArgvBuffer {
 public:
  explicit ArgvBuffer(std::vector<std::string> args);
  int argc() const { return static_cast<int>(pointers_.size()) - 1; }
  char** argv() { return pointers_.data(); }

 private:
  std::vector<std::string> args_;
  std::vector<char*> pointers_;
};

}  // namespace msprobe::cli
