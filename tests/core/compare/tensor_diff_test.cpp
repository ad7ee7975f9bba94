#include "core/compare/tensor_diff.h"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

namespace retort {
namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

TEST(CompareTensorDiff, WithinToleranceIsPass) {
  Tensor e = Tensor::from_doubles(DType::f32, {3}, {1, 2, 3});
  Tensor a = Tensor::from_doubles(DType::f32, {3}, {1.0005, 2, 3});
  OutputDiff d = diff_tensors(a, e, ToleranceTable{});
  EXPECT_EQ(d.verdict, Verdict::Pass);
  EXPECT_NEAR(d.max_abs_error, 5e-4, 1e-6);
  EXPECT_EQ(d.mismatched, 0);
}

TEST(CompareTensorDiff, MismatchMeasures) {
  Tensor e = Tensor::from_doubles(DType::f32, {4}, {1, 2, 0, 4});
  Tensor a = Tensor::from_doubles(DType::f32, {4}, {1, 3, 0.5, 4});
  OutputDiff d = diff_tensors(a, e, ToleranceTable{});
  EXPECT_EQ(d.verdict, Verdict::Mismatch);
  EXPECT_EQ(d.mismatched, 2);
  EXPECT_EQ(d.numel, 4);
  EXPECT_DOUBLE_EQ(d.max_abs_error, 1.0);
  EXPECT_TRUE(std::isinf(d.max_rel_error));  // 0.5 where 0 was expected
  EXPECT_DOUBLE_EQ(d.chebyshev, 1.0);
  EXPECT_EQ(d.first_mismatch, 1);
  EXPECT_DOUBLE_EQ(d.first_actual, 3);
  EXPECT_DOUBLE_EQ(d.first_expected, 2);
}

TEST(CompareTensorDiff, NanAndInf) {
  Tensor e = Tensor::from_doubles(DType::f64, {3}, {kNaN, kInf, 1});
  EXPECT_EQ(diff_tensors(Tensor::from_doubles(DType::f64, {3}, {kNaN, kInf, 1}), e, {}).verdict,
            Verdict::Pass);
  OutputDiff d = diff_tensors(Tensor::from_doubles(DType::f64, {3}, {0, kInf, 1}), e, {});
  EXPECT_EQ(d.verdict, Verdict::NanInfMismatch);
  EXPECT_TRUE(std::isinf(d.chebyshev));
  EXPECT_DOUBLE_EQ(d.max_abs_error, 0);
}

TEST(CompareTensorDiff, IntegersAreExactAndTypesMustAgree) {
  Tensor e = Tensor::from_ints(DType::i64, {2}, {int64_t(1) << 60, 5});
  Tensor a = Tensor::from_ints(DType::i64, {2}, {(int64_t(1) << 60) + 1, 5});
  EXPECT_EQ(diff_tensors(a, e, {}).verdict, Verdict::Mismatch);
  EXPECT_EQ(diff_tensors(Tensor(DType::f32, {2}), Tensor(DType::f32, {1, 2}), {}).verdict,
            Verdict::ShapeDtypeMismatch);
  EXPECT_EQ(diff_tensors(Tensor(DType::f32, {2}), Tensor(DType::f64, {2}), {}).verdict,
            Verdict::ShapeDtypeMismatch);
}

// ONNX Runtime's i64 mean off by 188 at 5e17 (docs/bugs.md row 14): doubles would print
// "-5.090072e+17 vs -5.090072e+17".
TEST(CompareTensorDiff, IntegerDifferencesPrintExactly) {
  Tensor e = Tensor::from_ints(DType::i64, {2}, {7, -509007232385874620});
  Tensor a = Tensor::from_ints(DType::i64, {2}, {7, -509007232385874432});
  OutputDiff d = diff_tensors(a, e, {});
  d.actual_name = d.expected_name = "y";
  EXPECT_EQ(d.str(),
            "y: mismatch in 1/2 elements, max_abs=188 max_rel=3.69e-16 chebyshev=188; first at "
            "[1]: -509007232385874432 vs -509007232385874620");
  Tensor f = Tensor::from_doubles(DType::f32, {1}, {2});
  d = diff_tensors(Tensor::from_doubles(DType::f32, {1}, {3.5}), f, {});
  d.actual_name = d.expected_name = "y";
  EXPECT_EQ(d.str(),
            "y: mismatch in 1/1 elements, max_abs=1.5 max_rel=0.75 chebyshev=1.5; first at "
            "[0]: 3.5 vs 2");
}

TEST(CompareTensorDiff, RunsThatFailGiveTheirStatus) {
  RunResult ok;
  ok.outputs["y"] = Tensor::from_doubles(DType::f32, {1}, {1});
  RunResult crashed;
  crashed.status = RunStatus::Crash;
  crashed.message = "signal 11";
  RunComparison c = compare_runs(crashed, ok, {{"y", "y"}}, {});
  EXPECT_EQ(c.verdict, Verdict::Crash);
  EXPECT_NE(c.message.find("signal 11"), std::string::npos);
  RunResult missing;
  c = compare_runs(missing, ok, {{"y", "y"}}, {});
  EXPECT_EQ(c.verdict, Verdict::ShapeDtypeMismatch);
  EXPECT_EQ(c.outputs.at(0).actual_type, "missing");
}

}  // namespace
}  // namespace retort
