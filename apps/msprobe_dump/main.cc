// msprobe-dump: inspect and verify dumps.
#include <CLI/CLI.hpp>

#include "common/exit_codes.h"

int main(int argc, char** argv) {
  return msprobe::cli::GuardedMain("msprobe-dump", [&] {
    CLI::App app{"Inspect and verify msprobe dumps"};
    try {
      app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
      return e.get_exit_code() == 0 ? app.exit(e) : (app.exit(e), int{msprobe::cli::kExitUsage});
    }
    return int{msprobe::cli::kExitOk};
  });
}
