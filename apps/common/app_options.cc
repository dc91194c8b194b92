#include "common/app_options.h"

#include "common/exit_codes.h"

namespace msprobe::cli {

void AddCommonOptions(CLI::App& app, CommonOptions* options) {
  app.add_flag("-q,--quiet", options->quiet, "No progress bar and no summary lines");
  app.add_option("-j,--threads", options->threads, "Worker threads (default: all cores)")->check(CLI::NonNegativeNumber);
  app.set_version_flag("--version", std::string("msprobe-cpp ") + MSPROBE_VERSION);
}

std::optional<int> Parse(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);  // prints the CLI11 message and the usage hint
    return kExitUsage;
  }
  return std::nullopt;
}

std::unique_ptr<tbb::global_control> ApplyThreads(const CommonOptions& options) {
  if (options.threads <= 0) return nullptr;
  return std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism,
                                               static_cast<size_t>(options.threads));
}

}  // namespace msprobe::cli
