#include "common/progress.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <utility>

#include "common/stderr_report.h"

namespace msprobe::cli {

std::string HumanBytes(uint64_t bytes) {
  if (bytes >= (uint64_t{1} << 30)) return fmt::format("{:.2f} GiB", bytes / double(uint64_t{1} << 30));
  if (bytes >= (uint64_t{1} << 20)) return fmt::format("{:.1f} MiB", bytes / double(uint64_t{1} << 20));
  return fmt::format("{} B", bytes);
}

ProgressBar::ProgressBar(std::string label, bool quiet)
    : label_(std::move(label)), enabled_(!quiet && ::isatty(STDERR_FILENO)) {}

void ProgressBar::Clear() {
  std::lock_guard<std::mutex> lock(mu_);
  if (drawn_) cli::PrintErr("\r\033[K");
  drawn_ = false;
}

void ProgressBar::Update(uint64_t done, uint64_t total, bool bytes) {
  if (!enabled_ || total == 0) return;
  std::lock_guard<std::mutex> lock(mu_);
  const auto now = std::chrono::steady_clock::now();
  if (done < total && drawn_ && now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  drawn_ = true;
  constexpr int kWidth = 30;
  const int filled = static_cast<int>(kWidth * done / total);
  cli::PrintErr("\r{} [{}{}] {}/{} ({}%)\033[K", label_, std::string(filled, '#'), std::string(kWidth - filled, '.'),
                bytes ? HumanBytes(done) : std::to_string(done), bytes ? HumanBytes(total) : std::to_string(total),
                100 * done / total);
  std::fflush(stderr);
}

Progress ProgressBar::Callback() {
  return [this](std::string_view what, uint64_t done, uint64_t total) { Update(done, total, what == "bytes"); };
}

Warn PrintWarnings(std::string program, ProgressBar* bar) {
  return [program = std::move(program), bar](const std::string& source, const std::string& message) {
    if (bar != nullptr) bar->Clear();
    cli::PrintErr("{}: warning: {}: {}\n", program, source, message);
  };
}

}  // namespace msprobe::cli
