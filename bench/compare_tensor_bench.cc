// Throughput of CompareTensors, warm page cache, rows run with tbb::parallel_for as the compare app does:
//  (a) 2,000 pairs of float32 and bfloat16 .pt tensors totalling SIZE_MIB (default 2200 MiB) of
//      target + golden bytes: GB/s of those bytes and peak RSS;
//  (b) 50,000 pairs of 4 KiB float32 .pt tensors: pairs per second.
// The .pt files are written here (torch 1.13's layout: a stored zip holding <name>/data.pkl, the
// storage <name>/data/0 and <name>/version), deterministically, and kept for later runs.
// Usage: compare_tensor_bench [DIR (default /tmp/msprobe_bench_compare)] [SIZE_MIB] [THREADS]
#include "bench_main.h"

#include <sys/resource.h>
#include <zlib.h>

#include <fmt/format.h>
#include <tbb/global_control.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>

#include <atomic>
#include <bit>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "msprobe/compare/metrics/tensor_compare.h"
#include "msprobe/dump/io/atomic_file.h"

namespace msprobe {
namespace {

using compare::CompareTensors;
using compare::TensorCompareInput;

constexpr int kRepeats = 3;
constexpr int kLargePairs = 2000;
constexpr int kSmallPairs = 50000;
constexpr uint64_t kSmallElements = 1024;  // 4 KiB of float32

void Put16(std::string* s, uint16_t v) { s->append(reinterpret_cast<const char*>(&v), 2); }
void Put32(std::string* s, uint32_t v) { s->append(reinterpret_cast<const char*>(&v), 4); }

// The data.pkl torch 1.13 writes for a 1-D contiguous tensor (protocol 2, memo puts omitted).
std::string TensorPickle(bool bf16, uint32_t numel) {
  using namespace std::string_literals;  // the opcodes hold NUL bytes
  std::string p = "\x80\x02" "ctorch._utils\n_rebuild_tensor_v2\n((X\x07\x00\x00\x00" "storage"s;
  p += bf16 ? "ctorch\nBFloat16Storage\n" : "ctorch\nFloatStorage\n";
  p += "X\x01\x00\x00\x00" "0X\x03\x00\x00\x00" "cpuJ"s;
  Put32(&p, numel);
  p += "tQK\x00J"s;
  Put32(&p, numel);
  p += "\x85K\x01\x85\x89" "ccollections\nOrderedDict\n)RtR."s;
  return p;
}

// A stored (uncompressed) zip of `members`, no zip64 (every member < 4 GiB).
Status WriteStoredZip(const std::string& path, const std::vector<std::pair<std::string, Bytes>>& members) {
  MSP_ASSIGN_OR_RETURN(AtomicFile file, AtomicFile::Create(path));
  std::string central;
  uint32_t offset = 0;
  for (const auto& [name, data] : members) {
    const auto crc = static_cast<uint32_t>(crc32(0, reinterpret_cast<const Bytef*>(data.data()), static_cast<uInt>(data.size())));
    const auto size = static_cast<uint32_t>(data.size());
    std::string local;
    Put32(&local, 0x04034b50);
    for (uint16_t v : {20, 0, 0, 0, 0x21}) Put16(&local, v);  // version, flags, stored, time, date
    Put32(&local, crc);
    Put32(&local, size);
    Put32(&local, size);
    Put16(&local, static_cast<uint16_t>(name.size()));
    Put16(&local, 0);
    local += name;
    Put32(&central, 0x02014b50);
    for (uint16_t v : {20, 20, 0, 0, 0, 0x21}) Put16(&central, v);
    Put32(&central, crc);
    Put32(&central, size);
    Put32(&central, size);
    Put16(&central, static_cast<uint16_t>(name.size()));
    for (uint16_t v : {0, 0, 0, 0}) Put16(&central, v);  // extra, comment, disk, internal attributes
    Put32(&central, 0);                                  // external attributes
    Put32(&central, offset);
    central += name;
    MSP_RETURN_IF_ERROR(file.Write(local));
    MSP_RETURN_IF_ERROR(file.Write(data));
    offset += static_cast<uint32_t>(local.size()) + size;
  }
  std::string end;
  Put32(&end, 0x06054b50);
  for (uint16_t v : {0, 0}) Put16(&end, v);
  Put16(&end, static_cast<uint16_t>(members.size()));
  Put16(&end, static_cast<uint16_t>(members.size()));
  Put32(&end, static_cast<uint32_t>(central.size()));
  Put32(&end, offset);
  Put16(&end, 0);
  MSP_RETURN_IF_ERROR(file.Write(central));
  MSP_RETURN_IF_ERROR(file.Write(end));
  return file.Commit();
}

Status WritePt(const std::string& path, bool bf16, const std::vector<float>& values) {
  const auto numel = static_cast<uint32_t>(values.size());
  std::vector<std::byte> storage(values.size() * (bf16 ? 2 : 4));
  for (size_t i = 0; i < values.size(); ++i) {
    const uint32_t bits = std::bit_cast<uint32_t>(values[i]);
    if (bf16) {
      const auto word = static_cast<uint16_t>((bits + 0x7fff + ((bits >> 16) & 1)) >> 16);  // nearest even
      std::memcpy(storage.data() + 2 * i, &word, 2);
    } else {
      std::memcpy(storage.data() + 4 * i, &bits, 4);
    }
  }
  const std::string pickle = TensorPickle(bf16, numel);
  return WriteStoredZip(path, {{"archive/data.pkl", AsBytes(pickle)},
                               {"archive/data/0", Bytes(storage.data(), storage.size())},
                               {"archive/version", AsBytes("3\n")}});
}

// Deterministic values for pair `seed`.
class Values : public bench::NormalValues {
 public:
  explicit Values(uint64_t seed) : NormalValues(seed * 0x9e3779b97f4a7c15ull + 1) {}
};

struct PairSet {
  std::string target_dir, golden_dir;
  std::vector<std::string> names;
  std::vector<bool> bf16;
  uint64_t bytes = 0;  // file bytes of both sides
};

// Golden values g, target g * (1 + 1e-3 u) with every 4099th golden value zero.
Status MakePair(const PairSet& set, size_t index, uint64_t numel) {
  Values values(index + 1);
  std::vector<float> golden(numel), target(numel);
  for (uint64_t i = 0; i < numel; ++i) {
    golden[i] = (i + index) % 4099 == 0 ? 0.0f : values.Next();
    target[i] = golden[i] * (1.0f + 1e-3f * values.Next());
  }
  MSP_RETURN_IF_ERROR(WritePt(set.target_dir + "/" + set.names[index], set.bf16[index], target));
  return WritePt(set.golden_dir + "/" + set.names[index], set.bf16[index], golden);
}

// Writes the pairs unless DIR/<label>.done says this exact set was written before.
Result<PairSet> Generate(const std::string& dir, const std::string& label, int pairs,
                         const std::vector<uint64_t>& numels, bool mixed) {
  PairSet set{dir + "/" + label + "/npu", dir + "/" + label + "/bench", {}, {}, 0};
  std::filesystem::create_directories(set.target_dir);
  std::filesystem::create_directories(set.golden_dir);
  for (int i = 0; i < pairs; ++i) {
    set.names.push_back(fmt::format("pair_{:05d}.pt", i));
    set.bf16.push_back(mixed && i % 2 == 1);
  }
  const std::string marker = dir + "/" + label + ".done";
  const std::string stamp = fmt::format("{} pairs, {} elements in all\n", pairs, [&] {
    uint64_t s = 0;
    for (uint64_t n : numels) s += n;
    return s;
  }());
  std::ifstream in(marker);
  std::string old((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (old != stamp) {
    fmt::print("generating {} ({} pairs)\n", label, pairs);
    std::atomic<bool> failed{false};
    tbb::parallel_for(0, pairs, [&](int i) {
      if (!MakePair(set, static_cast<size_t>(i), numels[static_cast<size_t>(i)]).ok()) failed = true;
    });
    if (failed) return Status::IOError(dir, "cannot write the benchmark tensors");
    MSP_RETURN_IF_ERROR(WriteFileAtomically(marker, stamp));
  }
  for (int i = 0; i < pairs; ++i) {
    set.bytes += std::filesystem::file_size(set.target_dir + "/" + set.names[static_cast<size_t>(i)]) +
                 std::filesystem::file_size(set.golden_dir + "/" + set.names[static_cast<size_t>(i)]);
  }
  return set;
}

// Reads every file once so the timed runs find them in the page cache.
void Warm(const PairSet& set) {
  for (const std::string& name : set.names) {
    for (const std::string& dir : {set.target_dir, set.golden_dir}) bench::WarmFile(dir + "/" + name);
  }
}

// Best wall time of kRepeats runs over the pairs selected by `keep`; fails if a row is unsupported.
Result<double> TimeCompare(const PairSet& set, int filter /* -1 all, 0 f32, 1 bf16 */) {
  double best = 1e30;
  for (int r = 0; r < kRepeats; ++r) {
    std::atomic<int> unsupported{0};
    const auto start = std::chrono::steady_clock::now();
    tbb::parallel_for(size_t{0}, set.names.size(), [&](size_t i) {
      if (filter >= 0 && set.bf16[i] != (filter == 1)) return;
      const TensorCompareInput input{set.names[i], set.names[i], true, set.target_dir, set.golden_dir};
      if (CompareTensors(input)[0].is_text()) ++unsupported;
    });
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    if (unsupported > 0)
      return Status::Internal(set.target_dir, fmt::format("{} rows were not compared", unsupported.load()));
  }
  return best;
}

uint64_t SelectedBytes(const PairSet& set, int filter) {
  uint64_t bytes = 0;
  for (size_t i = 0; i < set.names.size(); ++i) {
    if (filter >= 0 && set.bf16[i] != (filter == 1)) continue;
    bytes += std::filesystem::file_size(set.target_dir + "/" + set.names[i]) +
             std::filesystem::file_size(set.golden_dir + "/" + set.names[i]);
  }
  return bytes;
}

Status Run(const std::string& dir, uint64_t total_mib) {
  // (a) sizes cycle through 0.25, 0.5, 1, 1.5 and 1.75 times the mean so both small and large tensors
  // (some over four windows, compared on several threads) are in the mix.
  const double factors[] = {0.25, 0.5, 1.0, 1.5, 1.75};
  const double mean_file_bytes = static_cast<double>(total_mib << 20) / (2.0 * kLargePairs);
  std::vector<uint64_t> numels;
  for (int i = 0; i < kLargePairs; ++i) {
    const double item = i % 2 == 1 ? 2.0 : 4.0;
    numels.push_back(static_cast<uint64_t>(mean_file_bytes * factors[i % 5] / item));
  }
  MSP_ASSIGN_OR_RETURN(PairSet large, Generate(dir, "large", kLargePairs, numels, /*mixed=*/true));
  Warm(large);
  fmt::print("(a) {} pairs, float32 and bfloat16, {:.3f} GB of target + golden .pt files\n", kLargePairs,
             static_cast<double>(large.bytes) / 1e9);
  const char* labels[] = {"all pairs", "float32 pairs", "bfloat16 pairs"};
  for (int filter = -1; filter <= 1; ++filter) {
    MSP_ASSIGN_OR_RETURN(double seconds, TimeCompare(large, filter));
    const double gb = static_cast<double>(SelectedBytes(large, filter)) / 1e9;
    fmt::print("    {:<15} {:7.3f} GB in {:6.3f} s: {:6.2f} GB/s\n", labels[filter + 1], gb, seconds, gb / seconds);
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  fmt::print("    peak RSS so far: {} MiB\n", usage.ru_maxrss / 1024);

  MSP_ASSIGN_OR_RETURN(PairSet small, Generate(dir, "small", kSmallPairs,
                                               std::vector<uint64_t>(kSmallPairs, kSmallElements), /*mixed=*/false));
  Warm(small);
  MSP_ASSIGN_OR_RETURN(double seconds, TimeCompare(small, -1));
  fmt::print("(b) {} pairs of 4 KiB float32 tensors in {:.3f} s: {:.0f} pairs/s\n", kSmallPairs, seconds,
             kSmallPairs / seconds);
  getrusage(RUSAGE_SELF, &usage);
  fmt::print("peak RSS: {} MiB\n", usage.ru_maxrss / 1024);
  return Status::Ok();
}

}  // namespace
}  // namespace msprobe

int main(int argc, char** argv) {
  return msprobe::bench::BenchMain(argc, argv, "compare_tensor_bench", "/tmp/msprobe_bench_compare", 2200,
                                   [](const std::string& dir, uint64_t mib) { return msprobe::Run(dir, mib); });
}
