#include "common/app_options.h"

#include <fmt/format.h>

#include <filesystem>

#include "common/exit_codes.h"

namespace msprobe::cli {
namespace {

// The msprobe release whose file names, columns and verdicts we follow (docs/compare.md §0: "G3").
constexpr const char* kMsprobeFormats = "26.0.0 (G3)";

}  // namespace

std::string VersionText(std::string_view program) {
  return std::string(program) + " (msprobe-cpp) " MSPROBE_VERSION "\ngit revision " MSPROBE_GIT_REVISION
         "\nfile formats of msprobe " + std::string(kMsprobeFormats);
}

void AddCommonOptions(CLI::App& app, CommonOptions* options) {
  app.add_flag("-q,--quiet", options->quiet, "No progress bar, no list of the files written, no summary line (errors and warnings stay)");
  app.add_option("-j,--threads", options->threads, "Worker threads (default: all cores)")->check(CLI::NonNegativeNumber);
  // GNU's "program (package) version" line, which help2man reads, then what the build is and follows.
  app.set_version_flag("--version",
                       [&app] { return VersionText(std::filesystem::path(app.get_name()).filename().string()); });
}

std::optional<int> Parse(CLI::App& app, int argc, char** argv) {
  // The usage line and the errors name the program, not the path it was started by.
  const std::string program = std::filesystem::path(argc > 0 ? argv[0] : "").filename().string();
  app.name(program);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return ReportUsageError(program, e.what());
  }
  return std::nullopt;
}

std::unique_ptr<tbb::global_control> ApplyThreads(const CommonOptions& options) {
  if (options.threads <= 0) return nullptr;
  return std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism,
                                               static_cast<size_t>(options.threads));
}

}  // namespace msprobe::cli
