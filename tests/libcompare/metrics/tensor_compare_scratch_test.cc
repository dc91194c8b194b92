// CompareTensors with MoE scratch rows (docs/compare.md §4.2 step 3): the target rows from target_valid_rows on,
// along axis 0 of the squeezed tensor, count as zeros, in whichever windows and threads they fall, and
// give exactly the cells of a file whose rows were zeroed.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "msprobe/compare/metrics/tensor_compare.h"
#include "msprobe/compare/table/result_row.h"
#include "msprobe/dump/formats/npy_writer.h"
#include "test_support.h"

namespace msprobe::compare {
namespace {

void Write(const testing::TempDir& dir, const std::string& name, const std::vector<int64_t>& shape,
           const std::vector<float>& values) {
  const Status status = WriteNpy(dir.Path(name), DType::kF32, shape,
                                 Bytes(reinterpret_cast<const std::byte*>(values.data()), values.size() * sizeof(float)));
  ASSERT_TRUE(status.ok()) << status.ToString();
}

// Golden values, and the target's: close to them up to `valid` rows of `row` elements, garbage (NaN and
// inf included) after.
struct Pair {
  std::vector<float> target, golden, target_zeroed;
};
Pair MakePair(size_t rows, size_t row, size_t valid) {
  Pair p;
  for (size_t i = 0; i < rows * row; ++i) {
    const float b = static_cast<float>(std::sin(0.37 * static_cast<double>(i)));
    const bool scratch = i / row >= valid;
    p.golden.push_back(scratch ? 0.0F : b);
    const float n = scratch ? static_cast<float>(1000.0 * std::cos(1.3 * static_cast<double>(i))) : b * 1.0001F;
    p.target.push_back(n);
    p.target_zeroed.push_back(scratch ? 0.0F : n);
  }
  if (valid < rows) {
    p.target[valid * row] = NAN;
    p.target.back() = INFINITY;
  }
  return p;
}

void ExpectSameCells(const std::array<Cell, 6>& got, const std::array<Cell, 6>& want) {
  for (size_t i = 0; i < 6; ++i) EXPECT_EQ(got[i].ToPython(), want[i].ToPython()) << "metric " << i;
}

// [rows, 1, row]: the squeezed axis 0 is `rows`.
void ExpectCleanedLikeZeroedFile(size_t rows, size_t row, int64_t valid, uint64_t chunk) {
  testing::TempDir dir;
  const Pair p = MakePair(rows, row, static_cast<size_t>(std::max<int64_t>(valid, 0)));
  const std::vector<int64_t> shape = {static_cast<int64_t>(rows), 1, static_cast<int64_t>(row)};
  Write(dir, "npu.npy", shape, p.target);
  Write(dir, "zeroed.npy", shape, p.target_zeroed);
  Write(dir, "bench.npy", shape, p.golden);
  TensorCompareInput cleaned{"npu.npy", "bench.npy", true, dir.Path(""), dir.Path(""), valid};
  TensorCompareInput zeroed{"zeroed.npy", "bench.npy", true, dir.Path(""), dir.Path("")};
  ExpectSameCells(CompareTensors(cleaned, {.chunk_elements = chunk}), CompareTensors(zeroed, {.chunk_elements = chunk}));
}

TEST(TensorCompareScratchTest, RowsPastTheValidLengthReadAsZeros) {
  ExpectCleanedLikeZeroedFile(8, 3, 5, 1 << 20);
  const auto cells = CompareTensors({"npu.npy", "bench.npy", true, "", "", 5});
  EXPECT_TRUE(cells[0].IsText("unsupported"));  // no files: as before
}

TEST(TensorCompareScratchTest, ZeroValidRowsZeroEverything) { ExpectCleanedLikeZeroedFile(6, 4, 0, 1 << 20); }

// Windows of 4096 elements: the valid length falls inside one, later ones are zeros without reading
// the file, and over four windows they run on several threads.
TEST(TensorCompareScratchTest, WindowsAndThreadsAgree) {
  ExpectCleanedLikeZeroedFile(64, 1000, 13, 4096);
  ExpectCleanedLikeZeroedFile(64, 1000, 13, 1 << 20);
}

// A valid length of the whole tensor or more, or -1, reads the file as it is.
TEST(TensorCompareScratchTest, LongValidLengthsCleanNothing) {
  testing::TempDir dir;
  const Pair p = MakePair(8, 3, 8);
  Write(dir, "npu.npy", {8, 3}, p.target);
  Write(dir, "bench.npy", {8, 3}, p.golden);
  const auto plain = CompareTensors({"npu.npy", "bench.npy", true, dir.Path(""), dir.Path("")});
  for (int64_t valid : {8, 11, -1}) {
    ExpectSameCells(CompareTensors({"npu.npy", "bench.npy", true, dir.Path(""), dir.Path(""), valid}), plain);
  }
}

// The scratch rows' NaN and inf are gone, so only the bench side's decide the mask check.
TEST(TensorCompareScratchTest, CleanedNanNoLongerMismatches) {
  testing::TempDir dir;
  const Pair p = MakePair(4, 2, 2);
  Write(dir, "npu.npy", {4, 2}, p.target);
  Write(dir, "bench.npy", {4, 2}, p.golden);
  EXPECT_TRUE(CompareTensors({"npu.npy", "bench.npy", true, dir.Path(""), dir.Path("")})[0].IsText("N/A"));
  EXPECT_EQ(CompareTensors({"npu.npy", "bench.npy", true, dir.Path(""), dir.Path(""), 2})[0].ToPython(), "1.0");
}

}  // namespace
}  // namespace msprobe::compare
