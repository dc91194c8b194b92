// The shim on the sample program under the fake runtime (docs/capture.md A8.6): transparency, every
// captured tensor equal to what the program computed, names and layout, modes and filters.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <regex>
#include <thread>

#include "capture_test_support.h"
#include "msprobe/dump/formats/bin_reader.h"

namespace capture_test {
namespace {

constexpr int kOpsPerStep = 13;

std::map<std::string, std::string> Capture(const fs::path& dir, std::map<std::string, std::string> extra = {}) {
  extra["MSPROBE_CAPTURE_ENABLE"] = "1";
  extra["MSPROBE_CAPTURE_DIR"] = dir.string();
  extra["MSPROBE_CAPTURE_MIN_FREE_DISK"] = "0";
  return extra;
}

int CountStatus(const std::vector<rapidjson::Document>& lines, const char* status) {
  int n = 0;
  for (const auto& d : lines) n += std::string(d["status"].GetString()) == status;
  return n;
}

std::string GoldenPath(const fs::path& golden, int64_t stream, int64_t task, const char* io, size_t slot) {
  return (golden / ("s" + std::to_string(stream) + "_" + std::to_string(task) + "." + io + "." + std::to_string(slot) +
                    ".raw")).string();
}

// One written record: decoded with libprotobuf and with libdump's reader, named as CANN names files,
// and every slot byte-identical to what the program saw around the op (--golden).
void ExpectRecordMatchesGolden(const fs::path& run_dir, const rapidjson::Value& rec, const fs::path& golden) {
  const fs::path file = run_dir / rec["file"].GetString();
  const std::string op_type = rec["op_type"].GetString();
  const int64_t stream = rec["stream"].GetInt64(), task = rec["task"].GetInt64();
  SCOPED_TRACE(file.string());
  static const std::regex kName(R"(^[A-Za-z0-9_-]+\.([A-Za-z0-9_-]+)\.([0-9]+)\.([0-9]+)\.[0-9]{16}$)");
  std::smatch m;
  const std::string name = file.filename().string();
  ASSERT_TRUE(std::regex_match(name, m, kName));
  EXPECT_EQ(m[1].str(), rec["op_name"].GetString());
  EXPECT_EQ(m[2].str(), std::to_string(task));
  EXPECT_EQ(m[3].str(), std::to_string(stream));

  DecodedBin bin;
  ASSERT_TRUE(DecodeBin(file, &bin));
  EXPECT_EQ(bin.header.version(), "2.0");
  EXPECT_EQ(bin.header.op_name(), rec["op_name"].GetString());
  EXPECT_EQ(std::to_string(bin.header.dump_time()), name.substr(name.rfind('.') + 1));
  size_t offset = 0;
  const auto check = [&](const char* io, size_t slot, int data_type, int format, const toolkit::dumpdata::Shape& shape,
                         const toolkit::dumpdata::Shape& original, uint64_t size) {
    SCOPED_TRACE(std::string(io) + " " + std::to_string(slot));
    const std::string expected = ReadFile(GoldenPath(golden, stream, task, io, slot));
    ASSERT_EQ(size, expected.size());
    ASSERT_LE(offset + size, bin.data.size());
    EXPECT_TRUE(std::memcmp(bin.data.data() + offset, expected.data(), size) == 0);
    offset += size;
    EXPECT_EQ(data_type, op_type == "Cast" && std::string(io) == "input" ? 2 : 1);  // DT_FLOAT16 / DT_FLOAT
    EXPECT_EQ(format, 2);                                                            // FORMAT_ND
    uint64_t numel = 1;
    for (uint64_t d : shape.dim()) numel *= d;
    EXPECT_EQ(numel * (data_type == 2 ? 2 : 4), size);
    EXPECT_EQ(shape.SerializeAsString(), original.SerializeAsString());
  };
  for (int i = 0; i < bin.header.input_size(); ++i) {
    const auto& t = bin.header.input(i);
    check("input", i, t.data_type(), t.format(), t.shape(), t.original_shape(), t.size());
  }
  for (int i = 0; i < bin.header.output_size(); ++i) {
    const auto& t = bin.header.output(i);
    check("output", i, t.data_type(), t.format(), t.shape(), t.original_shape(), t.size());
  }
  EXPECT_EQ(offset, bin.data.size());

  auto parsed = msprobe::ReadBinFile(file.string());
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  ASSERT_EQ(parsed->slots.size(), static_cast<size_t>(bin.header.input_size() + bin.header.output_size()));
  EXPECT_EQ(parsed->op_name, bin.header.op_name());
  EXPECT_EQ(parsed->trailing_bytes, 0u);
}

TEST(CaptureRun, ResultsAreBitIdenticalWithAndWithoutTheShim) {
  TempDir tmp;
  const auto plain = RunProgram(Sample({"--steps", "3", "--out", (tmp.path() / "plain.bin").string()}), {}, false);
  ASSERT_EQ(plain.code, 0) << plain.err;
  for (auto mode : {"tensor", "stats"}) {
    const fs::path dir = tmp.path() / mode;
    const auto shim = RunProgram(Sample({"--steps", "3", "--out", (tmp.path() / (std::string(mode) + ".bin")).string()}),
                          Capture(dir, {{"MSPROBE_CAPTURE_MODE", mode}}), true);
    ASSERT_EQ(shim.code, 0) << shim.err;
    EXPECT_EQ(shim.out, plain.out);
    EXPECT_EQ(shim.err, "");
    EXPECT_EQ(ReadFile(tmp.path() / (std::string(mode) + ".bin")), ReadFile(tmp.path() / "plain.bin"));
    EXPECT_EQ(CountStatus(ReadManifests(dir), mode == std::string("tensor") ? "written" : "stats"), 2 * 3 * kOpsPerStep);
  }
}

TEST(CaptureRun, EveryCapturedTensorEqualsWhatTheProgramComputed) {
  TempDir tmp;
  const fs::path golden = tmp.path() / "golden", dir = tmp.path() / "cap";
  fs::create_directories(golden);
  const auto r = RunProgram(Sample({"--steps", "2", "--golden", golden.string()}),
                     Capture(dir, {{"FAKE_ACL_TASK_DELAY_US", "50"}}), true);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto lines = ReadManifests(dir);
  ASSERT_EQ(lines.size(), 2u * 2 * kOpsPerStep);
  std::map<std::string, int> per_type;
  for (const auto& rec : lines) {
    ASSERT_STREQ(rec["status"].GetString(), "written");
    ++per_type[rec["op_type"].GetString()];
    ExpectRecordMatchesGolden(RunDir(dir, 0), rec, golden);
  }
  EXPECT_EQ(per_type["MatMul"], 2 * 2 * 5);
  EXPECT_EQ(per_type["Axpy"], 2 * 2 * 2);
  EXPECT_EQ(per_type["Cast"], 2 * 2);
  // No temporary file is left, and the tree is {dir}/rank_0/{YYYYMMDDHHMMSS}/0/.
  for (const fs::path& f : FilesUnder(dir)) EXPECT_NE(f.extension(), ".tmp") << f;
  EXPECT_TRUE(std::regex_match(RunDir(dir, 0).filename().string(), std::regex("[0-9]{14}")));
  EXPECT_TRUE(fs::is_directory(RunDir(dir, 0) / "0"));
}

// With a 1 MiB budget, the Add over three 8 MiB tensors (--big 8) is written from the hook in 96 pieces
// of 256 KiB (a quarter of the budget); every byte is still what the program computed around the op.
TEST(CaptureRun, CallLargerThanTheBudgetIsWrittenInPieces) {
  TempDir tmp;
  const fs::path golden = tmp.path() / "golden", dir = tmp.path() / "cap";
  fs::create_directories(golden);
  const auto r = RunProgram(Sample({"--steps", "1", "--big", "8", "--golden", golden.string()}),
                            Capture(dir, {{"MSPROBE_CAPTURE_MEMORY", "1M"}, {"FAKE_ACL_TASK_DELAY_US", "50"}}), true);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const auto lines = ReadManifests(dir);
  ASSERT_EQ(lines.size(), 2u * kOpsPerStep + 1);
  int big = 0;
  for (const auto& rec : lines) {
    ASSERT_STREQ(rec["status"].GetString(), "written");
    ExpectRecordMatchesGolden(RunDir(dir, 0), rec, golden);
    if (std::string(rec["op_type"].GetString()) != "Add") {
      EXPECT_FALSE(rec.HasMember("pieces"));
      continue;
    }
    ++big;
    EXPECT_EQ(rec["bytes"].GetInt64() - 3 * (8 << 20), rec["bytes"].GetInt64() % (1 << 20)) << "header only";
    EXPECT_EQ(rec["pieces"].GetInt(), 3 * 8 * 4);
  }
  EXPECT_EQ(big, 1);
  for (const fs::path& f : FilesUnder(dir)) EXPECT_NE(f.extension(), ".tmp") << f;
}

// The one record of a run whose file is larger than `min_bytes` (the --big Add).
const rapidjson::Value* BigRecord(const std::vector<rapidjson::Document>& lines, int64_t min_bytes) {
  const rapidjson::Value* found = nullptr;
  for (const auto& rec : lines) {
    if (rec.HasMember("bytes") && rec["bytes"].GetInt64() > min_bytes) {
      if (found) return nullptr;
      found = &rec;
    }
  }
  return found;
}

// O_DIRECT (MSPROBE_CAPTURE_DIRECT, forced onto 3 MiB tensors by DIRECT_MIN=1M): the aligned middle of
// each slot goes direct, the head (after a header of odd length) and the tail buffered, and the file is
// the one DIRECT=off writes, byte for byte; also when the call is written in pieces from the hook.
TEST(CaptureRun, DirectWritesGiveTheSameFilesAsBufferedOnes) {
  TempDir tmp;
  constexpr int64_t kSlot = 3 << 20, kData = 3 * kSlot;
  struct Run {
    const char* name;
    std::map<std::string, std::string> env;
    int64_t direct;  // bytes expected through O_DIRECT, given the header's odd length
  };
  const Run runs[] = {
      {"off", {{"MSPROBE_CAPTURE_DIRECT", "off"}, {"MSPROBE_CAPTURE_DIRECT_MIN", "1M"}}, 0},
      {"direct", {{"MSPROBE_CAPTURE_DIRECT", "auto"}, {"MSPROBE_CAPTURE_DIRECT_MIN", "1M"}}, 3 * (kSlot - 4096)},
      // 9 MiB > the 8 MiB budget: six pieces of 2 MiB and 1 MiB, each placed for O_DIRECT in the piece buffer.
      {"pieces", {{"MSPROBE_CAPTURE_DIRECT_MIN", "1M"}, {"MSPROBE_CAPTURE_MEMORY", "8M"}}, kData - 6 * 4096},
  };
  std::map<std::string, fs::path> big_files;
  for (const Run& run : runs) {
    SCOPED_TRACE(run.name);
    const fs::path golden = tmp.path() / (std::string("golden_") + run.name), dir = tmp.path() / run.name;
    fs::create_directories(golden);
    // One step: the Add's seq has two digits whatever the threads' interleaving, so the header's length is fixed.
    const auto r = RunProgram(Sample({"--steps", "1", "--big", "3", "--golden", golden.string()}), Capture(dir, run.env), true);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    const auto lines = ReadManifests(dir);
    ASSERT_EQ(lines.size(), 2u * kOpsPerStep + 1);
    for (const auto& rec : lines) {
      ASSERT_STREQ(rec["status"].GetString(), "written");
      ExpectRecordMatchesGolden(RunDir(dir, 0), rec, golden);
    }
    const rapidjson::Value* big = BigRecord(lines, kData);
    ASSERT_NE(big, nullptr);
    const int64_t prefix = (*big)["bytes"].GetInt64() - kData;
    ASSERT_EQ(prefix % 2, 1) << "the header's length should be odd";
    EXPECT_EQ(big->HasMember("direct") ? (*big)["direct"].GetInt64() : 0, run.direct);
    EXPECT_EQ(big->HasMember("pieces"), std::string(run.name) == "pieces");
    for (const auto& rec : lines) EXPECT_TRUE(&rec == big || !rec.HasMember("direct"));
    big_files[run.name] = RunDir(dir, 0) / (*big)["file"].GetString();
    EXPECT_EQ(static_cast<int64_t>(fs::file_size(big_files[run.name])), (*big)["bytes"].GetInt64());
    for (const fs::path& f : FilesUnder(dir)) EXPECT_NE(f.extension(), ".tmp") << f;
  }
  // The same bytes as the buffered file, but for the header's time and op name (the call's seq).
  const std::string off = ReadFile(big_files["off"]);
  DecodedBin want;
  ASSERT_TRUE(DecodeBin(big_files["off"], &want));
  want.header.clear_dump_time();
  want.header.clear_op_name();
  for (const char* name : {"direct", "pieces"}) {
    SCOPED_TRACE(name);
    const std::string got = ReadFile(big_files[name]);
    ASSERT_EQ(got.size(), off.size());
    EXPECT_EQ(got.compare(0, 8, off, 0, 8), 0) << "header length";
    EXPECT_TRUE(got.compare(got.size() - kData, kData, off, off.size() - kData, kData) == 0) << "data section";
    DecodedBin bin;
    ASSERT_TRUE(DecodeBin(big_files[name], &bin));
    bin.header.clear_dump_time();
    bin.header.clear_op_name();
    EXPECT_EQ(bin.header.SerializeAsString(), want.header.SerializeAsString());
  }
}

// Where O_DIRECT is refused at open (FAKE_ACL_ODIRECT=refuse, as on filesystems without it) or fails
// mid-file (=fail: only the first direct write works), and on tmpfs, the files are still complete and
// exact; capture goes on buffered.
TEST(CaptureRun, DirectFallsBackToBufferedWritesWhenRefused) {
  TempDir tmp;
  const fs::path shm = fs::path("/dev/shm") / ("capture_direct_" + std::to_string(getpid()));
  struct RemoveShm {
    const fs::path& dir;
    ~RemoveShm() {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  } remove_shm{shm};
  struct Run {
    const char* name;
    fs::path dir;
    std::map<std::string, std::string> env;
  };
  std::vector<Run> runs = {{"refuse", tmp.path() / "refuse", {{"FAKE_ACL_ODIRECT", "refuse"}}},
                           {"fail", tmp.path() / "fail", {{"FAKE_ACL_ODIRECT", "fail"}}}};
  if (fs::is_directory("/dev/shm")) runs.push_back({"shm", shm, {}});
  for (Run& run : runs) {
    SCOPED_TRACE(run.name);
    const fs::path golden = tmp.path() / (std::string("golden_") + run.name);
    fs::create_directories(golden);
    run.env["MSPROBE_CAPTURE_DIRECT_MIN"] = "1M";
    const auto r = RunProgram(Sample({"--steps", "2", "--big", "3", "--golden", golden.string()}), Capture(run.dir, run.env), true);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    const auto lines = ReadManifests(run.dir);
    ASSERT_EQ(lines.size(), 2u * 2 * kOpsPerStep + 2);
    int64_t direct = 0;
    for (const auto& rec : lines) {
      ASSERT_STREQ(rec["status"].GetString(), "written");
      ExpectRecordMatchesGolden(RunDir(run.dir, 0), rec, golden);
      if (rec.HasMember("direct")) direct += rec["direct"].GetInt64();
    }
    if (std::string(run.name) == "refuse") EXPECT_EQ(direct, 0);
    if (std::string(run.name) == "fail") EXPECT_EQ(direct, (3 << 20) - 4096) << "the first slot's middle only";
    for (const fs::path& f : FilesUnder(run.dir)) EXPECT_NE(f.extension(), ".tmp") << f;
  }
}

// MSPROBE_CAPTURE_LARGE=drop keeps the old rule: a call larger than the budget is dropped and counted.
TEST(CaptureRun, CallLargerThanTheBudgetIsDroppedWhenAsked) {
  TempDir tmp;
  const auto r = RunProgram(Sample({"--steps", "2", "--big", "8"}),
                            Capture(tmp.path(), {{"MSPROBE_CAPTURE_MEMORY", "1M"}, {"MSPROBE_CAPTURE_LARGE", "drop"}}), true);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto lines = ReadManifests(tmp.path());
  ASSERT_EQ(lines.size(), 2u * 2 * kOpsPerStep + 2);
  for (const auto& rec : lines) {
    const bool add = std::string(rec["op_type"].GetString()) == "Add";
    EXPECT_STREQ(rec["status"].GetString(), add ? "dropped" : "written");
    if (add) EXPECT_NE(std::string(rec["reason"].GetString()).find("MSPROBE_CAPTURE_MEMORY"), std::string::npos);
  }
  EXPECT_EQ(CountStatus(lines, "dropped"), 2);
}

TEST(CaptureRun, HostFunctionFailureFallsBackToWaitingForTheStream) {
  TempDir tmp;
  const fs::path golden = tmp.path() / "golden", dir = tmp.path() / "cap";
  fs::create_directories(golden);
  const auto r = RunProgram(Sample({"--steps", "1", "--golden", golden.string()}),
                     Capture(dir, {{"FAKE_ACL_FAIL_HOST_FUNC", "1"}}), true);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto lines = ReadManifests(dir);
  ASSERT_EQ(lines.size(), 2u * kOpsPerStep);
  for (const auto& rec : lines) ExpectRecordMatchesGolden(RunDir(dir, 0), rec, golden);
}

// statistic.csv values against statistics computed here from the program's own tensors.
TEST(CaptureRun, StatsModeWritesStatisticRowsOfTheProgramsTensors) {
  TempDir tmp;
  const fs::path golden = tmp.path() / "golden", dir = tmp.path() / "cap";
  fs::create_directories(golden);
  const auto r = RunProgram(Sample({"--steps", "1", "--golden", golden.string(), "--nan-step", "0"}),
                     Capture(dir, {{"MSPROBE_CAPTURE_MODE", "stats"}, {"MSPROBE_CAPTURE_OPS", "^(MatMul|Softmax)$"}}),
                     true);
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string csv = ReadFile(RunDir(dir, 0) / "0" / "statistic.csv");
  std::istringstream lines(csv);
  std::string header, row;
  std::getline(lines, header);
  EXPECT_EQ(header,
            "Op Type,Op Name,Task ID,Stream ID,Timestamp,Input/Output,Slot,Data Size,Data Type,Format,Shape,"
            "Max Value,Min Value,Avg Value,L2Norm Value,NaN Count,Negative Inf Count,Positive Inf Count");
  int rows = 0, rows_with_nan = 0;
  static const std::regex kRow(
      R"re(^(MatMul|Softmax),\1_\d+,(\d+),(\d+),\d{16},(input|output),(\d+),(\d+),FLOAT,ND,("\(\d+,\d+\)"),([^,]*),([^,]*),([^,]*),([^,]*),(\d+),0,0$)re");
  while (std::getline(lines, row)) {
    std::smatch m;
    ASSERT_TRUE(std::regex_match(row, m, kRow)) << row;
    ++rows;
    const std::string raw = ReadFile(GoldenPath(golden, std::stoll(m[3]), std::stoll(m[2]), m[4].str().c_str(), std::stoul(m[5])));
    ASSERT_EQ(raw.size(), std::stoul(m[6]));
    std::vector<float> v(raw.size() / 4);
    std::memcpy(v.data(), raw.data(), raw.size());
    double mx = -INFINITY, mn = INFINITY, sum = 0, sq = 0;
    uint64_t nan = 0, n = 0;
    for (float f : v) {
      if (std::isnan(f)) { ++nan; continue; }
      mx = std::max(mx, double(f)); mn = std::min(mn, double(f)); sum += f; sq += double(f) * f; ++n;
    }
    EXPECT_EQ(std::stoull(m[12]), nan);
    rows_with_nan += nan > 0;
    if (n == 0) {
      EXPECT_EQ(m[8].str(), "");
      continue;
    }
    EXPECT_DOUBLE_EQ(std::stod(m[8]), mx);
    EXPECT_DOUBLE_EQ(std::stod(m[9]), mn);
    EXPECT_NEAR(std::stod(m[10]), sum / double(n), 1e-12 * (1 + std::fabs(sum)));
    EXPECT_NEAR(std::stod(m[11]), std::sqrt(sq), 1e-12 * std::sqrt(sq) + 1e-300);
  }
  EXPECT_EQ(rows, 2 * (5 * 3 + 2));  // per replica: 5 MatMuls (3 slots each) and Softmax (2 slots)
  EXPECT_GT(rows_with_nan, 0);       // the injected NaN reached thread 0's tensors
}

TEST(CaptureRun, IoAndOpsSelectWhatIsWritten) {
  TempDir tmp;
  const auto r = RunProgram(Sample({"--steps", "1"}),
                     Capture(tmp.path(), {{"MSPROBE_CAPTURE_IO", "output"}, {"MSPROBE_CAPTURE_OPS", "^Axpy$"}}), true);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto lines = ReadManifests(tmp.path());
  ASSERT_EQ(lines.size(), 4u);
  for (const auto& rec : lines) {
    EXPECT_STREQ(rec["op_type"].GetString(), "Axpy");
    ASSERT_EQ(rec["slots"].Size(), 1u);
    EXPECT_STREQ(rec["slots"][0]["io"].GetString(), "output");
  }
}

TEST(CaptureRun, ExecRangeSelectsOpCallsByIndex) {
  TempDir tmp;
  const auto r = RunProgram(Sample({"--steps", "2"}), Capture(tmp.path(), {{"MSPROBE_CAPTURE_EXEC_RANGE", "0-4,50-"}}), true);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto lines = ReadManifests(tmp.path());
  ASSERT_EQ(lines.size(), 5u + (2 * 2 * kOpsPerStep - 50));
  for (const auto& rec : lines) {
    const int64_t seq = rec["seq"].GetInt64();
    EXPECT_TRUE(seq <= 4 || seq >= 50) << seq;
  }
}

TEST(CaptureRun, RanksComeFromRankIdAndFilter) {
  TempDir tmp;
  for (const char* ranks : {"", "1"}) {
    const fs::path dir = tmp.path() / (std::string("r") + ranks);
    std::vector<RunResult> results(2);
    std::vector<std::thread> procs;
    for (int rank = 0; rank < 2; ++rank) {
      auto env = Capture(dir, {{"RANK_ID", std::to_string(rank)}});
      if (*ranks) env["MSPROBE_CAPTURE_RANKS"] = ranks;
      procs.emplace_back([&, rank, env] { results[rank] = RunProgram(Sample({"--steps", "1"}), env, true); });
    }
    for (auto& p : procs) p.join();
    for (const auto& res : results) ASSERT_EQ(res.code, 0) << res.err;
    EXPECT_EQ(fs::exists(dir / "rank_0"), *ranks == '\0');
    ASSERT_TRUE(fs::exists(dir / "rank_1"));
    for (const auto& rec : ReadManifests(dir / "rank_1")) {
      EXPECT_EQ(rec["rank"].GetInt(), 1);
      EXPECT_EQ(rec["device"].GetInt(), 1);
    }
    EXPECT_EQ(ReadManifests(dir / "rank_1").size(), 2u * kOpsPerStep);
  }
}

// Delegate mode: the runtime's own dump, delivered in 100-byte chunks, assembled into the same tree.
TEST(CaptureRun, DelegateModeWritesTheRuntimeDumpFiles) {
  TempDir tmp;
  const fs::path golden = tmp.path() / "golden", dir = tmp.path() / "cap";
  fs::create_directories(golden);
  const auto r = RunProgram(Sample({"--steps", "1", "--golden", golden.string()}),
                     Capture(dir, {{"MSPROBE_CAPTURE_DELEGATE", "1"}, {"FAKE_ACL_DUMP_CHUNK", "100"}}), true);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto lines = ReadManifests(dir);
  ASSERT_EQ(lines.size(), 2u * kOpsPerStep);
  for (const auto& rec : lines) {
    EXPECT_STREQ(rec["source"].GetString(), "runtime");
    const fs::path file = RunDir(dir, 0) / rec["file"].GetString();
    DecodedBin bin;
    ASSERT_TRUE(DecodeBin(file, &bin)) << file;
    EXPECT_EQ(rec["bytes"].GetUint64(), fs::file_size(file));
    // {op}.{op}_{n}.{task}.{stream}.{time}: the data equals the program's inputs then outputs.
    const std::string name = file.filename().string();
    std::vector<std::string> parts;
    std::stringstream ss(name);
    for (std::string p; std::getline(ss, p, '.');) parts.push_back(p);
    ASSERT_EQ(parts.size(), 5u);
    std::string expected;
    for (int i = 0; i < bin.header.input_size(); ++i) {
      expected += ReadFile(GoldenPath(golden, std::stoll(parts[3]), std::stoll(parts[2]), "input", i));
    }
    for (int i = 0; i < bin.header.output_size(); ++i) {
      expected += ReadFile(GoldenPath(golden, std::stoll(parts[3]), std::stoll(parts[2]), "output", i));
    }
    EXPECT_TRUE(bin.data == expected) << file;
  }
  EXPECT_TRUE(fs::exists(dir / "acl_dump_0.json"));
}

}  // namespace
}  // namespace capture_test
