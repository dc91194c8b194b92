#include "msprobe/dump/framework/output_location.h"

#include <filesystem>

#include "msprobe/dump/framework/dump_layout.h"

namespace msprobe {
namespace {

namespace fs = std::filesystem;

// `inner` is `outer` or below it (both canonical).
bool Within(const fs::path& inner, const fs::path& outer) {
  auto i = inner.begin();
  for (auto o = outer.begin(); o != outer.end(); ++o, ++i) {
    if (i == inner.end() || *i != *o) return false;
  }
  return true;
}

}  // namespace

Status CheckOutputOutsideInputs(const std::string& output, bool is_dir, const std::vector<std::string>& inputs) {
  std::error_code ec;
  const fs::path out = fs::weakly_canonical(output, ec);
  if (ec) return Status::Ok();  // an unresolvable output fails where it is created, with that error
  for (const std::string& input : inputs) {
    if (input.empty()) continue;
    const fs::path in = fs::canonical(input, ec);
    if (ec) continue;
    if (fs::is_directory(in, ec)) {
      if (Within(out, in)) return Status::InvalidInput(output, "the output would land inside the input " + input);
      continue;
    }
    if (!is_dir && out == in) return Status::InvalidInput(output, "the output would overwrite the input " + input);
    const fs::path tensors = fs::weakly_canonical(TensorDataDir(in.string()), ec);
    if (!ec && is_dir && Within(out, tensors)) {
      return Status::InvalidInput(output, "the output would land inside the input's tensor directory " + tensors.string());
    }
  }
  return Status::Ok();
}

}  // namespace msprobe
