#include "common/single_dash_flags.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "common/exit_codes.h"
#include "common/stderr_report.h"

namespace msprobe::cli {
namespace {

// A single-dash token CLI11 would split: "-" then two or more characters, the first a letter.
bool IsSingleDashWord(std::string_view arg) {
  return arg.size() >= 3 && arg[0] == '-' && arg[1] != '-' && std::isalpha(static_cast<unsigned char>(arg[1]));
}

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

// The table's single-dash flag closest to `word`.
std::string_view Nearest(std::string_view word, const FlagTable& table) {
  std::string_view best;
  size_t best_distance = SIZE_MAX;
  const auto consider = [&](std::string_view flag) {
    if (flag.size() < 2 || flag[1] == '-') return;
    const size_t d = EditDistance(word, flag);
    if (d < best_distance) best = flag, best_distance = d;
  };
  for (const auto& [alias, target] : table.aliases) consider(alias);
  for (const LegacyFlag& l : table.legacy) consider(l.flag);
  return best;
}

std::string Refusal(std::string_view word, const FlagTable& table) {
  if (table.short_with_value.find(word[1]) != std::string_view::npos) {
    return fmt::format("{}: not a flag of this program; for {} with the value \"{}\", write {} {}", word,
                       word.substr(0, 2), word.substr(2), word.substr(0, 2), word.substr(2));
  }
  const std::string_view nearest = Nearest(word, table);
  if (nearest.empty()) return fmt::format("{}: not a flag of this program", word);
  return fmt::format("{}: not a flag of this program (did you mean {}?)", word, nearest);
}

}  // namespace

RewrittenArgs RewriteFlags(int argc, char** argv, const FlagTable& table) {
  RewrittenArgs out;
  out.args.reserve(static_cast<size_t>(argc));
  bool options_ended = false;
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    if (i == 0 || options_ended) {
      out.args.push_back(std::move(arg));
      continue;
    }
    if (arg == "--") options_ended = true;
    const size_t eq = arg.find('=');
    const std::string_view name = std::string_view(arg).substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : arg.substr(eq);  // "=…" or ""
    const auto alias = std::find_if(table.aliases.begin(), table.aliases.end(), [&](const auto& a) { return a.first == name; });
    if (alias != table.aliases.end()) {
      out.args.push_back(std::string(alias->second) + value);
      continue;
    }
    const auto legacy = std::find_if(table.legacy.begin(), table.legacy.end(), [&](const LegacyFlag& l) { return l.flag == name; });
    if (legacy != table.legacy.end()) {
      if (!legacy->replacement.empty()) {
        out.args.push_back(std::string(legacy->replacement) + value);
      } else {
        out.warnings.push_back(fmt::format("warning: {} is an older msprobe flag, ignored: {}", name, legacy->why));
      }
      continue;
    }
    const bool numeric_glued = table.numeric_short.find(arg[1]) != std::string_view::npos &&
                               std::all_of(arg.begin() + 2, arg.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    if (IsSingleDashWord(arg) && !numeric_glued) {
      out.error = Refusal(name, table);
      return out;
    }
    out.args.push_back(std::move(arg));
  }
  return out;
}

std::optional<int> ReportRewrite(std::string_view program, const RewrittenArgs& rewritten) {
  for (const std::string& w : rewritten.warnings) cli::PrintErr("{}: {}\n", program, w);
  if (!rewritten.error) return std::nullopt;
  return ReportUsageError(program, *rewritten.error);
}

ArgvBuffer::ArgvBuffer(std::vector<std::string> args) : args_(std::move(args)) {
  for (std::string& a : args_) pointers_.push_back(a.data());
  pointers_.push_back(nullptr);
}

}  // namespace msprobe::cli
