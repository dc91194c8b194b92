// Writes an N-rank msprobe tensor dump pair for the distributed benchmark (scripts/bench_mpi.sh):
// DIR/npu/step0/rank{r}/ and DIR/bench/step0/rank{r}/, each a dump.json (task "tensor", L1) of
// Functional.linear calls, one float32 input and one output of 1 MiB each as .pt files in
// dump_tensor_data/, about MB_PER_RANK per rank and side. The golden side is the target side with every
// 50th output scaled by 1.01, so some rows fail. Deterministic; a rank already written is kept.
// Usage: rank_dumps_gen DIR RANKS MB_PER_RANK
#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <span>
#include <string>
#include <vector>

#include "bench_main.h"
#include "msprobe/dump/formats/pt_writer.h"

namespace {

namespace fs = std::filesystem;
using msprobe::Status;

constexpr int64_t kElements = 1 << 18;  // 1 MiB of float32

std::string TensorJson(const std::vector<float>& v, const std::string& data_name) {
  double max = -INFINITY, min = INFINITY, sum = 0, squares = 0;
  for (float x : v) {
    max = std::max<double>(max, x);
    min = std::min<double>(min, x);
    sum += x;
    squares += static_cast<double>(x) * x;
  }
  return fmt::format(
      "{{\"type\": \"torch.Tensor\", \"dtype\": \"torch.float32\", \"shape\": [512, 512], \"Max\": {}, \"Min\": {}, "
      "\"Mean\": {}, \"Norm\": {}, \"requires_grad\": false, \"data_name\": \"{}\"}}",
      max, min, sum / static_cast<double>(v.size()), std::sqrt(squares), data_name);
}

Status WriteRank(const fs::path& dir, int rank, bool golden, int calls) {
  const fs::path data = dir / "dump_tensor_data";
  fs::create_directories(data);
  std::string json = "{\"task\": \"tensor\", \"level\": \"L1\", \"framework\": \"pytorch\", \"dump_data_dir\": \"" +
                     data.string() + "\", \"data\": {\n";
  msprobe::bench::NormalValues values(0x9e3779b97f4a7c15ULL + static_cast<uint64_t>(rank));
  std::vector<float> x(kElements), y(kElements);
  for (int c = 0; c < calls; ++c) {
    for (float& v : x) v = values.Next();
    for (int64_t i = 0; i < kElements; ++i) y[i] = 0.5f * x[i] + 0.25f;
    if (golden && c % 50 == 49) {
      for (float& v : y) v *= 1.01f;
    }
    const std::string api = fmt::format("Functional.linear.{}.forward", c);
    const std::string in = api + ".input.0.pt", out = api + ".output.0.pt";
    const std::vector<int64_t> shape = {512, 512};
    for (const auto& [name, tensor] : {std::pair{in, &x}, std::pair{out, &y}}) {
      const msprobe::Bytes bytes = std::as_bytes(std::span<const float>(*tensor));
      MSP_RETURN_IF_ERROR(msprobe::WritePt((data / name).string(), msprobe::DType::kF32, shape, bytes));
    }
    json += fmt::format("\"{}\": {{\"input_args\": [{}], \"input_kwargs\": {{}}, \"output\": [{}]}}{}\n", api,
                        TensorJson(x, in), TensorJson(y, out), c + 1 < calls ? "," : "");
  }
  std::ofstream(dir / "dump.json") << json << "}}";
  return Status::Ok();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: rank_dumps_gen DIR RANKS MB_PER_RANK\n");
    return 2;
  }
  const fs::path dir = argv[1];
  const int ranks = std::stoi(argv[2]);
  const int calls = std::max(1, std::stoi(argv[3]) / 2);  // two 1 MiB tensors per call
  for (int r = 0; r < ranks; ++r) {
    for (const char* side : {"npu", "bench"}) {
      const fs::path rank_dir = dir / side / "step0" / fmt::format("rank{}", r);
      if (fs::exists(rank_dir / "dump.json")) continue;
      const Status s = WriteRank(rank_dir, r, std::string(side) == "bench", calls);
      if (!s.ok()) {
        std::fprintf(stderr, "rank_dumps_gen: %s\n", s.ToString().c_str());
        return 1;
      }
    }
  }
  return 0;
}
