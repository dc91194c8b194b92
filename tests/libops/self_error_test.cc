// The golden-free self-error check (docs/ops.md §5): unit roundoffs, accumulation lengths, the
// tolerance rule, the error metrics on hand-computed vectors, and every call of the recompute test
// dumps (tests/data/recompute/README.md).
#include "msprobe/ops/check/self_error.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>

#include "libops/call_json.h"
#include "msprobe/ops/check/dump_check.h"
#include "msprobe/ops/check/tolerance.h"
#include "test_support.h"

namespace msprobe::ops {
namespace {

namespace fs = std::filesystem;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

CallArgs Parse(const std::string& json) {
  auto doc = ParseJsonText(json, "t.json");
  EXPECT_TRUE(doc.ok()) << doc.status().ToString();
  if (!doc.ok()) return {};
  auto args = ParseCallArgs(*doc, "t");
  EXPECT_TRUE(args.ok()) << args.status().ToString();
  return args.ok() ? *args : CallArgs{};
}

Fp64Tensor Vec(std::initializer_list<double> v) {
  return Fp64Tensor{{static_cast<int64_t>(v.size())}, Fp64Values(v)};
}

// --- UnitRoundoff -----------------------------------------------------------------------------------

TEST(UnitRoundoff, HalfTheMachineEpsilonOfEachFloatingDtype) {
  // numpy: np.finfo(np.float32).eps / 2 == 2**-24, np.finfo(np.float16).eps / 2 == 2**-11,
  // np.finfo(np.float64).eps / 2 == 2**-53; torch.finfo(torch.bfloat16).eps / 2 == 2**-8.
  EXPECT_EQ(UnitRoundoff(DType::kF32), static_cast<double>(std::numeric_limits<float>::epsilon()) / 2);
  EXPECT_EQ(UnitRoundoff(DType::kF32), 5.9604644775390625e-08);  // 2^-24
  EXPECT_EQ(UnitRoundoff(DType::kF16), 0.00048828125);           // 2^-11
  EXPECT_EQ(UnitRoundoff(DType::kBF16), 0.00390625);             // 2^-8
  EXPECT_EQ(UnitRoundoff(DType::kF64), std::numeric_limits<double>::epsilon() / 2);
  EXPECT_EQ(UnitRoundoff(DType::kF64), std::ldexp(1.0, -53));
}

TEST(UnitRoundoff, IntegerAndBoolResultsAreExact) {
  EXPECT_EQ(UnitRoundoff(DType::kI32), 0.0);
  EXPECT_EQ(UnitRoundoff(DType::kI64), 0.0);
  EXPECT_EQ(UnitRoundoff(DType::kU8), 0.0);
  EXPECT_EQ(UnitRoundoff(DType::kBool), 0.0);
}

// --- AccumulationLength -----------------------------------------------------------------------------

TEST(AccumulationLength, InnerDimensionOfLinearAndMatmul) {
  // linear(x [4, 16], W [32, 16], b [32]): each output sums 16 products.
  const CallArgs linear = Parse(R"({"input_args": [)" + T("[4, 16]") + "," + T("[32, 16]") + "," + T("[32]") +
                                R"(], "output": [)" + T("[4, 32]") + "]}");
  EXPECT_EQ(AccumulationLength("Functional.linear.0.forward", linear), 16);
  // matmul([2, 5, 7] @ [7, 3]): 7 terms.
  const CallArgs matmul = Parse(R"({"input_args": [)" + T("[2, 5, 7]") + "," + T("[7, 3]") + "]}");
  EXPECT_EQ(AccumulationLength("Torch.matmul.3.forward", matmul), 7);
  EXPECT_EQ(AccumulationLength("Tensor.__matmul__.0.forward", matmul), 7);
  EXPECT_EQ(AccumulationLength("Torch.bmm.0.forward", Parse(R"({"input_args": [)" + T("[2, 5, 9]") + "," +
                                                             T("[2, 9, 3]") + "]}")),
            9);
}

TEST(AccumulationLength, Conv2dSumsInputChannelsPerGroupTimesKernel) {
  // weight [8, 3, 5, 5]: C_in/groups = 3, kH·kW = 25 → 75.
  const CallArgs conv = Parse(R"({"input_args": [)" + T("[1, 3, 32, 32]") + "," + T("[8, 3, 5, 5]") + "]}");
  EXPECT_EQ(AccumulationLength("Functional.conv2d.0.forward", conv), 75);
  // groups = 4 with C_in 8: weight [16, 2, 3, 3] → 18.
  const CallArgs grouped = Parse(R"({"input_args": [)" + T("[1, 8, 9, 9]") + "," + T("[16, 2, 3, 3]") + R"(],
      "input_kwargs": {"groups": )" + I(4) + "}}");
  EXPECT_EQ(AccumulationLength("Functional.conv2d.0.forward", grouped), 18);
}

TEST(AccumulationLength, NormalisedAndReducedLengths) {
  // layer_norm(h [4, 8], [8], g [8], beta [8], eps) as nn.LayerNorm records it: 8.
  const CallArgs ln = Parse(R"({"input_args": [)" + T("[4, 8]") + ", [" + I(8) + "]," + T("[8]") + "," + T("[8]") +
                            R"(, {"type": "float", "value": 1e-05}]})");
  EXPECT_EQ(AccumulationLength("Functional.layer_norm.0.forward", ln), 8);
  // layer_norm over the last two dims without weight: the last dim is taken (6).
  const CallArgs ln_no_weight = Parse(R"({"input_args": [)" + T("[2, 5, 6]") + ", [" + I(5) + "," + I(6) + "]]}");
  EXPECT_EQ(AccumulationLength("Functional.layer_norm.0.forward", ln_no_weight), 6);

  // softmax over dim 0 of [5, 3] is 5; over dim -1 (kwarg) 3; positional dim 1 is 3.
  EXPECT_EQ(AccumulationLength("Functional.softmax.0.forward",
                               Parse(R"({"input_args": [)" + T("[5, 3]") + R"(], "input_kwargs": {"dim": )" + I(0) + "}}")),
            5);
  EXPECT_EQ(AccumulationLength("Functional.softmax.0.forward",
                               Parse(R"({"input_args": [)" + T("[5, 3]") + R"(], "input_kwargs": {"dim": )" + I(-1) + "}}")),
            3);
  EXPECT_EQ(AccumulationLength("Tensor.softmax.0.forward", Parse(R"({"input_args": [)" + T("[5, 3]") + "," + I(1) + "]}")),
            3);

  // sum of [4, 8] over dim 1 → output [4]: 32 / 4 = 8 terms each; a full sum to [] → 32.
  EXPECT_EQ(AccumulationLength("Torch.sum.0.forward", Parse(R"({"input_args": [)" + T("[4, 8]") +
                                                             R"(], "input_kwargs": {"dim": [)" + I(1) +
                                                             R"(]}, "output": [)" + T("[4]") + "]}")),
            8);
  EXPECT_EQ(AccumulationLength("Torch.sum.0.forward",
                               Parse(R"({"input_args": [)" + T("[4, 8]") + R"(], "output": [)" + T("[]") + "]}")),
            32);
}

TEST(AccumulationLength, ElementwiseAndShapeOpsAreOne) {
  const CallArgs one = Parse(R"({"input_args": [)" + T("[4, 8]") + "," + T("[4, 8]") + R"(], "output": [)" + T("[4, 8]") + "]}");
  EXPECT_EQ(AccumulationLength("Tensor.__add__.0.forward", one), 1);
  EXPECT_EQ(AccumulationLength("Functional.gelu.0.forward", one), 1);
  EXPECT_EQ(AccumulationLength("Torch.reshape.0.forward", one), 1);
}

// --- SelfTolerance ----------------------------------------------------------------------------------

TEST(SelfTolerance, TheRuleWithItsConstants) {
  const double u32 = std::ldexp(1.0, -24);
  const CallArgs linear = Parse(R"({"input_args": [)" + T("[4, 16]") + "," + T("[32, 16]") + "]}");
  const CallArgs elementwise = Parse(R"({"input_args": [)" + T("[4]") + "," + T("[4]") + "]}");

  // float32 linear, K = 16: 8u + 4·√16·u = 24u.
  Tolerance t = SelfTolerance("Functional.linear.0.forward", linear, DType::kF32);
  EXPECT_EQ(t.accumulation, 16);
  EXPECT_DOUBLE_EQ(t.rel, 24 * u32);
  // float32 add: 2u + 4u = 6u.
  EXPECT_DOUBLE_EQ(SelfTolerance("Tensor.__add__.0.forward", elementwise, DType::kF32).rel, 6 * u32);
  // float32 gelu (transcendental, K = 1): 8u + 4u = 12u.
  EXPECT_DOUBLE_EQ(SelfTolerance("Functional.gelu.0.forward", elementwise, DType::kF32).rel, 12 * u32);
  // bfloat16 linear, K = 16: 8·2^-8 + 16·2^-24 (the accumulator is float32).
  EXPECT_DOUBLE_EQ(SelfTolerance("Functional.linear.0.forward", linear, DType::kBF16).rel,
                   8 * std::ldexp(1.0, -8) + 16 * u32);
  // float16 add: 2·2^-11 + 4·2^-24.
  EXPECT_DOUBLE_EQ(SelfTolerance("Torch.add.0.forward", elementwise, DType::kF16).rel,
                   2 * std::ldexp(1.0, -11) + 4 * u32);
  // float64 linear: its own roundoff for the accumulator too: 8u64 + 16u64 = 24u64.
  EXPECT_DOUBLE_EQ(SelfTolerance("Functional.linear.0.forward", linear, DType::kF64).rel, 24 * std::ldexp(1.0, -53));
  // Integer outputs must be exact.
  const Tolerance exact = SelfTolerance("Functional.linear.0.forward", linear, DType::kI32);
  EXPECT_EQ(exact.rel, 0.0);
  EXPECT_EQ(exact.accumulation, 16);
}

// --- MeasureError -----------------------------------------------------------------------------------

TEST(MeasureError, HandComputedVector) {
  // y = {1, 2, 3}, r = {1, 2, 3.5}: the only difference is 0.5 at r = 3.5.
  // rms(r) = sqrt((1 + 4 + 12.25) / 3) = sqrt(5.75) ≈ 2.398 < 3.5, so the scale there is 3.5:
  // max_rel = 0.5 / 3.5. cosine = (1 + 4 + 10.5) / (sqrt(14)·sqrt(17.25)).
  const ErrorMetrics m = MeasureError(Vec({1, 2, 3}), Vec({1, 2, 3.5}), DType::kF32);
  EXPECT_EQ(m.max_abs, 0.5);
  EXPECT_DOUBLE_EQ(m.max_rel, 0.5 / 3.5);
  EXPECT_DOUBLE_EQ(m.cosine, 15.5 / (std::sqrt(14.0) * std::sqrt(17.25)));
}

TEST(MeasureError, SmallElementsAreMeasuredAgainstTheRms) {
  // r = {0, 0, 0, 4}: rms = sqrt(16 / 4) = 2. y differs by 0.5 at r = 0 (scale max(0, 2) = 2 → 0.25)
  // and by 0.4 at r = 4 (scale 4 → 0.1): max_rel = 0.25, max_abs = 0.5.
  const ErrorMetrics m = MeasureError(Vec({0.5, 0, 0, 4.4}), Vec({0, 0, 0, 4}), DType::kF32);
  EXPECT_DOUBLE_EQ(m.max_abs, 0.5);
  EXPECT_DOUBLE_EQ(m.max_rel, 0.25);
}

TEST(MeasureError, EqualIsZeroAndZerosHaveCosineOne) {
  const ErrorMetrics same = MeasureError(Vec({-1, 2.5, 7}), Vec({-1, 2.5, 7}), DType::kF32);
  EXPECT_EQ(same.max_abs, 0.0);
  EXPECT_EQ(same.max_rel, 0.0);
  EXPECT_DOUBLE_EQ(same.cosine, 1.0);
  const ErrorMetrics zeros = MeasureError(Vec({0, 0}), Vec({0, 0}), DType::kF32);
  EXPECT_EQ(zeros.max_rel, 0.0);
  EXPECT_EQ(zeros.cosine, 1.0);
  // One side all zero: no direction to compare, cosine NaN; any difference against an all-zero
  // reference (scale 0) is infinitely relative.
  const ErrorMetrics one_zero = MeasureError(Vec({1, 0}), Vec({0, 0}), DType::kF32);
  EXPECT_TRUE(std::isnan(one_zero.cosine));
  EXPECT_EQ(one_zero.max_rel, kInf);
  EXPECT_EQ(one_zero.max_abs, 1.0);
}

TEST(MeasureError, NanAndInfinityAgreementAndDisagreement) {
  // NaN where the reference is NaN, +inf where it is +inf: agreement, skipped by the metrics.
  const ErrorMetrics agree = MeasureError(Vec({kNaN, kInf, 2}), Vec({kNaN, kInf, 2}), DType::kF32);
  EXPECT_EQ(agree.max_rel, 0.0);
  EXPECT_EQ(agree.max_abs, 0.0);
  EXPECT_DOUBLE_EQ(agree.cosine, 1.0);
  // NaN where the reference is finite, or finite where it is NaN, or -inf against +inf: +inf.
  EXPECT_EQ(MeasureError(Vec({kNaN, 2}), Vec({1, 2}), DType::kF32).max_rel, kInf);
  EXPECT_EQ(MeasureError(Vec({1, 2}), Vec({kNaN, 2}), DType::kF32).max_rel, kInf);
  EXPECT_EQ(MeasureError(Vec({-kInf, 2}), Vec({kInf, 2}), DType::kF32).max_rel, kInf);
  // The finite pairs are still measured: max_abs of the rest.
  EXPECT_EQ(MeasureError(Vec({kNaN, 2.5}), Vec({1, 2}), DType::kF32).max_abs, 0.5);
}

TEST(MeasureError, ReferenceBeyondTheDtypeRangeIsInfinity) {
  // float16's largest finite value is 65504; round to nearest sends |r| >= 65520 (65504 plus half
  // its ulp of 32) to infinity. torch: torch.tensor(70000., dtype=torch.float64).half() == inf.
  EXPECT_EQ(MeasureError(Vec({kInf}), Vec({70000}), DType::kF16).max_rel, 0.0);
  EXPECT_EQ(MeasureError(Vec({-kInf}), Vec({-70000}), DType::kF16).max_rel, 0.0);
  EXPECT_EQ(MeasureError(Vec({kInf}), Vec({65520}), DType::kF16).max_rel, 0.0);   // the tie rounds up
  EXPECT_EQ(MeasureError(Vec({kInf}), Vec({65530}), DType::kF16).max_rel, 0.0);
  // 60000 and 65519 are representable (or round to 65504): a kernel that gives inf is wrong.
  EXPECT_EQ(MeasureError(Vec({kInf}), Vec({60000}), DType::kF16).max_rel, kInf);
  EXPECT_EQ(MeasureError(Vec({kInf}), Vec({65519}), DType::kF16).max_rel, kInf);
  // 70000 as float32 is an ordinary value: inf there disagrees.
  EXPECT_EQ(MeasureError(Vec({kInf}), Vec({70000}), DType::kF32).max_rel, kInf);
  // float32: FLT_MAX · (1 + 2^-25) is past FLT_MAX + half an ulp (2^103) → inf.
  const double flt_max = std::numeric_limits<float>::max();
  EXPECT_EQ(MeasureError(Vec({kInf}), Vec({flt_max + std::ldexp(1.0, 103)}), DType::kF32).max_rel, 0.0);
  EXPECT_EQ(MeasureError(Vec({kInf}), Vec({flt_max + std::ldexp(1.0, 102)}), DType::kF32).max_rel, kInf);
}

TEST(SelfCheck, ExcessIsMaxRelInToleranceUnits) {
  SelfCheck c;
  c.tolerance.rel = 4e-7;
  c.error.max_rel = 1e-7;
  EXPECT_DOUBLE_EQ(c.Excess(), 0.25);
  c.error.max_rel = 0;
  EXPECT_EQ(c.Excess(), 0.0);
  c.tolerance.rel = 0;  // integer output
  EXPECT_EQ(c.Excess(), 0.0);
  c.error.max_rel = 1;
  EXPECT_EQ(c.Excess(), kInf);
  EXPECT_EQ(SelfVerdictName(SelfVerdict::kOk), "ok");
  EXPECT_EQ(SelfVerdictName(SelfVerdict::kExceeds), "exceeds");
  EXPECT_EQ(SelfVerdictName(SelfVerdict::kUnsupported), "unsupported");
  EXPECT_EQ(SelfVerdictName(SelfVerdict::kUnreadable), "unreadable");
}

// --- CheckSelfError with tensors held in memory -------------------------------------------------------

// A loader serving the tensors of `files` by data_name.
InputLoader MemoryLoader(std::map<std::string, Fp64Tensor> files) {
  return [files = std::move(files)](const TensorRef& ref) -> Result<Fp64Tensor> {
    auto it = ref.data_name ? files.find(*ref.data_name) : files.end();
    if (it == files.end()) return Status::NotFound(ref.path, "no such tensor");
    return it->second;
  };
}

TEST(CheckSelfError, IntegerOutputsMustBeExact) {
  // x + y on int32: 3 + 4 recorded as 8 is off by one, infinitely many tolerances.
  const CallArgs add = Parse(R"({"input_args": [)" + T("[2]", "torch.int32", "a.pt") + "," + T("[2]", "torch.int32", "b.pt") +
                             R"(], "output": [)" + T("[2]", "torch.int32", "o.pt") + "]}");
  SelfCheck exact = CheckSelfError("Torch.add.0.forward", add,
                                   MemoryLoader({{"a.pt", Vec({1, 3})}, {"b.pt", Vec({2, 4})}, {"o.pt", Vec({3, 7})}}));
  EXPECT_EQ(exact.verdict, SelfVerdict::kOk) << exact.reason;
  EXPECT_EQ(exact.tolerance.rel, 0.0);
  EXPECT_EQ(exact.dtype, "torch.int32");
  SelfCheck off = CheckSelfError("Torch.add.0.forward", add,
                                 MemoryLoader({{"a.pt", Vec({1, 3})}, {"b.pt", Vec({2, 4})}, {"o.pt", Vec({3, 8})}}));
  EXPECT_EQ(off.verdict, SelfVerdict::kExceeds);
  EXPECT_EQ(off.error.max_abs, 1.0);
}

TEST(CheckSelfError, FloatAddWithinAndBeyondTolerance) {
  const double u = std::ldexp(1.0, -24);
  const CallArgs add = Parse(R"({"input_args": [)" + T("[2]", "torch.float32", "a.pt") + "," +
                             T("[2]", "torch.float32", "b.pt") + R"(], "output": [)" + T("[2]", "torch.float32", "o.pt") + "]}");
  // Off by u relative at the larger element: 1/6 of the tolerance 6u.
  SelfCheck close = CheckSelfError("Torch.add.0.forward", add,
                                   MemoryLoader({{"a.pt", Vec({1, 2})}, {"b.pt", Vec({1, 2})}, {"o.pt", Vec({2, 4 * (1 + u)})}}));
  EXPECT_EQ(close.verdict, SelfVerdict::kOk);
  EXPECT_EQ(close.output, "output.0");
  EXPECT_NEAR(close.Excess(), 1.0 / 6, 1e-12);
  SelfCheck far = CheckSelfError("Torch.add.0.forward", add,
                                 MemoryLoader({{"a.pt", Vec({1, 2})}, {"b.pt", Vec({1, 2})}, {"o.pt", Vec({2, 4 * (1 + 7 * u)})}}));
  EXPECT_EQ(far.verdict, SelfVerdict::kExceeds);
  EXPECT_GT(far.Excess(), 1.0);
}

TEST(CheckSelfError, SavedTensorThatDoesNotLoadIsUnreadableNotUnsupported) {
  const CallArgs relu = Parse(R"({"input_args": [)" + T("[2]", "torch.float32", "in.pt") + R"(], "output": [)" +
                              T("[2]", "torch.float32", "out.pt") + "]}");
  // An input that cannot be loaded: the reason is the loader's, naming the argument.
  SelfCheck missing_in = CheckSelfError("Torch.relu.0.forward", relu, MemoryLoader({{"out.pt", Vec({1, 0})}}));
  EXPECT_EQ(missing_in.verdict, SelfVerdict::kUnreadable);
  EXPECT_EQ(missing_in.reason, "input_args.0: no such tensor");
  EXPECT_FALSE(missing_in.Measured());
  // The output cannot be loaded: named as well.
  SelfCheck missing_out = CheckSelfError("Torch.relu.0.forward", relu, MemoryLoader({{"in.pt", Vec({1, -1})}}));
  EXPECT_EQ(missing_out.verdict, SelfVerdict::kUnreadable);
  EXPECT_EQ(missing_out.reason, "output.0: no such tensor");
  // A dtype no reference takes stays unsupported, whatever its file holds.
  const CallArgs complex = Parse(R"({"input_args": [)" + T("[2]", "torch.complex64", "in.pt") + R"(], "output": [)" +
                                 T("[2]", "torch.float32", "out.pt") + "]}");
  SelfCheck complex_in = CheckSelfError("Torch.relu.0.forward", complex, MemoryLoader({{"out.pt", Vec({1, 0})}}));
  EXPECT_EQ(complex_in.verdict, SelfVerdict::kUnsupported);
}

TEST(CheckSelfError, UnsupportedCalls) {
  // No reference for the API.
  const CallArgs call = Parse(R"({"input_args": [)" + T("[1, 1, 2, 2, 2]") + "," + T("[1, 1, 1, 1, 1]") + "]}");
  SelfCheck none = CheckSelfError("Torch.conv3d.0.forward", call, MemoryLoader({}));
  EXPECT_EQ(none.verdict, SelfVerdict::kUnsupported);
  EXPECT_NE(none.reason.find("no float64 reference for Torch.conv3d"), std::string::npos) << none.reason;
  EXPECT_TRUE(none.dtype.empty());
  // An input that was not saved (no data_name): nothing to load it from.
  const CallArgs unsaved_in = Parse(R"({"input_args": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2]}],)"
                                    R"( "output": [)" + T("[2]", "torch.float32", "out.pt") + "]}");
  SelfCheck not_saved = CheckSelfError("Torch.relu.0.forward", unsaved_in, MemoryLoader({{"out.pt", Vec({1, 0})}}));
  EXPECT_EQ(not_saved.verdict, SelfVerdict::kUnsupported);
  // No output saved at all.
  const CallArgs unsaved = Parse(R"({"input_args": [)" + T("[2]", "torch.float32", "in.pt") + R"(], "output": []})");
  SelfCheck nothing = CheckSelfError("Torch.relu.0.forward", unsaved, MemoryLoader({{"in.pt", Vec({1, -1})}}));
  EXPECT_EQ(nothing.verdict, SelfVerdict::kUnsupported);
  EXPECT_EQ(nothing.reason, "no floating output was saved");
}

// --- CheckDumpCalls on the recompute test dumps -------------------------------------------------------

std::string RecomputeDump(const std::string& name) { return testing::TestData("recompute/" + name + "/step0/rank0/dump.json"); }

const char* const kCalls[] = {"Functional.linear.0.forward",    "Functional.gelu.0.forward",
                              "Functional.linear.1.forward",    "Functional.layer_norm.0.forward",
                              "Tensor.__add__.0.forward",       "Functional.softmax.0.forward",
                              "Torch.sum.0.forward"};

DumpCheck CheckDump(const std::string& dump_json) {
  auto check = CheckDumpCalls(dump_json);
  EXPECT_TRUE(check.ok()) << check.status().ToString();
  return check.ok() ? *check : DumpCheck{};
}

TEST(CheckDumpCalls, GoldenAndTargetInputAreWithinTolerance) {
  for (const char* name : {"golden", "target_input"}) {
    SCOPED_TRACE(name);
    const DumpCheck check = CheckDump(RecomputeDump(name));
    ASSERT_EQ(check.calls.size(), std::size(kCalls));
    EXPECT_EQ(check.skipped, 0u);
    for (size_t i = 0; i < check.calls.size(); ++i) {
      const CallCheck& c = check.calls[i];
      EXPECT_EQ(c.key, kCalls[i]);  // file (execution) order, whatever order the threads finished in
      EXPECT_EQ(c.check.verdict, SelfVerdict::kOk) << c.key << ": " << c.check.reason;
      EXPECT_LT(c.check.Excess(), 0.5) << c.key;  // every correct op is well inside its tolerance
      EXPECT_EQ(c.check.dtype, "torch.float32");
      EXPECT_EQ(c.check.output, "output.0");
      EXPECT_GT(c.check.error.cosine, 0.999999);
    }
  }
}

TEST(CheckDumpCalls, TargetOpFlagsOnlyTheReplacedGelu) {
  const DumpCheck check = CheckDump(RecomputeDump("target_op"));
  ASSERT_EQ(check.calls.size(), std::size(kCalls));
  std::map<std::string, int64_t> expected_k = {
      {"Functional.linear.0.forward", 16}, {"Functional.gelu.0.forward", 1},   {"Functional.linear.1.forward", 32},
      {"Functional.layer_norm.0.forward", 8}, {"Tensor.__add__.0.forward", 1}, {"Functional.softmax.0.forward", 8},
      {"Torch.sum.0.forward", 8}};
  for (const CallCheck& c : check.calls) {
    SCOPED_TRACE(c.key);
    EXPECT_EQ(c.check.tolerance.accumulation, expected_k[c.key]);
    if (c.key == "Functional.gelu.0.forward") {
      EXPECT_EQ(c.check.verdict, SelfVerdict::kExceeds);
      // The tanh approximation is thousands of float32 units away; tolerance 12u.
      EXPECT_GT(c.check.error.max_rel, 100 * c.check.tolerance.rel);
      EXPECT_GT(c.check.Excess(), 100);
    } else {
      EXPECT_EQ(c.check.verdict, SelfVerdict::kOk) << c.check.reason;
      EXPECT_LT(c.check.Excess(), 0.5);  // including the ops downstream of gelu: they inherit, not make, the error
    }
  }
}

TEST(CheckDumpCalls, MissingTensorFileIsUnreadableWithTheFileNamed) {
  testing::TempDir tmp;
  const fs::path rank = tmp.root() / "rank0";
  fs::copy(fs::path(RecomputeDump("golden")).parent_path(), rank, fs::copy_options::recursive);
  fs::remove(rank / "dump_tensor_data" / "Functional.linear.1.forward.input.1.pt");
  const DumpCheck check = CheckDump((rank / "dump.json").string());
  ASSERT_EQ(check.calls.size(), std::size(kCalls));
  for (const CallCheck& c : check.calls) {
    if (c.key == "Functional.linear.1.forward") {
      EXPECT_EQ(c.check.verdict, SelfVerdict::kUnreadable);
      EXPECT_NE(c.check.reason.find("Functional.linear.1.forward.input.1.pt"), std::string::npos) << c.check.reason;
    } else {
      EXPECT_EQ(c.check.verdict, SelfVerdict::kOk) << c.key << ": " << c.check.reason;
    }
  }
}

TEST(CheckDumpCalls, ApiWithoutReferenceAndNonForwardEntries) {
  testing::TempDir tmp;
  const std::string dump = tmp.Path("dump.json");
  testing::WriteFile(dump, R"({"task": "tensor", "level": "L1", "framework": "pytorch", "dump_data_dir": null, "data": {
    "Torch.conv3d.0.forward": {"input_args": [)" + T("[1, 1, 2, 2, 2]", "torch.float32", "c.pt") + R"(],
        "input_kwargs": {}, "output": [)" + T("[1, 1, 2, 2, 2]", "torch.float32", "o.pt") + R"(]},
    "Functional.linear.0.backward": {"input": [], "output": []},
    "Tensor.x.0.forward": {"input_args": [{"type": "slice", "value": [1, 2, null]}]}}})");
  const DumpCheck check = CheckDump(dump);
  ASSERT_EQ(check.calls.size(), 2u);
  EXPECT_EQ(check.skipped, 1u);  // the backward entry
  EXPECT_EQ(check.calls[0].key, "Torch.conv3d.0.forward");
  EXPECT_EQ(check.calls[0].check.verdict, SelfVerdict::kUnsupported);
  EXPECT_NE(check.calls[0].check.reason.find("no float64 reference for Torch.conv3d"), std::string::npos) << check.calls[0].check.reason;
  // An argument form the parser refuses: unsupported with the parser's reason, not an error.
  EXPECT_EQ(check.calls[1].check.verdict, SelfVerdict::kUnsupported);
  EXPECT_NE(check.calls[1].check.reason.find("slice"), std::string::npos) << check.calls[1].check.reason;
}

TEST(CheckDumpCalls, UnreadableDumpJsonIsAnError) {
  testing::TempDir tmp;
  EXPECT_FALSE(CheckDumpCalls(tmp.Path("none.json")).ok());
  testing::WriteFile(tmp.Path("dump.json"), "{\"data\": {\"x\": ");
  EXPECT_FALSE(CheckDumpCalls(tmp.Path("dump.json")).ok());
}

TEST(CheckDumpCalls, ProgressCountsEveryCall) {
  std::atomic<uint64_t> calls{0}, last_total{0};
  auto check = CheckDumpCalls(RecomputeDump("golden"), [&](std::string_view, uint64_t, uint64_t total) {
    ++calls;
    last_total = total;
  });
  ASSERT_TRUE(check.ok());
  EXPECT_EQ(calls.load(), 7u);
  EXPECT_EQ(last_total.load(), 7u);
}

}  // namespace
}  // namespace msprobe::ops
