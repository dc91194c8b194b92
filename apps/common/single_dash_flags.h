// msprobe's argparse flags are single-dash long names (-tp, -gp, -fm …), which Debian 12's CLI11 2.1
// rejects, and which CLI11 would otherwise split into clusters of short flags (-hl as -h -l: help is
// printed and nothing compared) or a short flag with its value glued on (-ofs as -o fs). Before
// parsing, every single-dash token of two or more characters goes through one table: an alias is
// rewritten to its double-dash form, an older msprobe flag is mapped or dropped with a warning, and
// any other is refused, naming the flag it resembles.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace msprobe::cli {

using FlagAliases = std::vector<std::pair<std::string_view, std::string_view>>;

// An older msprobe flag: `replacement` is what it means now; empty when it no longer means anything
// (the token is dropped and `why` is printed as a warning).
struct LegacyFlag {
  std::string_view flag, replacement, why;
};

struct FlagTable {
  FlagAliases aliases;             // also "alias=value"
  std::vector<LegacyFlag> legacy;  // single- or double-dash
  // The program's one-letter options that take a value: "-ofs" is refused as "-o fs" glued.
  std::string_view short_with_value;
  // Of those, the ones whose value may be glued on when it is a number (-j4).
  std::string_view numeric_short = "j";
};

struct RewrittenArgs {
  std::vector<std::string> args;      // argv[0] kept; nothing after "--" is touched
  std::vector<std::string> warnings;  // one line each, without the program prefix
  std::optional<std::string> error;   // a refused token: the usage error's text
};

RewrittenArgs RewriteFlags(int argc, char** argv, const FlagTable& table);

// Prints the rewrite's warnings, and its error as a usage error, each as "<program>: …" on stderr;
// returns the exit code when the program must stop (kExitUsage).
std::optional<int> ReportRewrite(std::string_view program, const RewrittenArgs& rewritten);

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
