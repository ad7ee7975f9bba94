#include <cmath>

#include <gtest/gtest.h>

#include "core/ops/registry.h"
#include "tests/core/ops/op_test_util.h"

namespace retort {
namespace {

using namespace testing;

Tensor i32(std::vector<int64_t> v) {
  return ints(DType::i32, {static_cast<int64_t>(v.size())}, v);
}
Tensor i64(std::vector<int64_t> v) {
  return ints(DType::i64, {static_cast<int64_t>(v.size())}, v);
}
Tensor bools(std::vector<int64_t> v) {
  return ints(DType::boolean, {static_cast<int64_t>(v.size())}, v);
}

TEST(BinaryOps, AddWrapsIntegers) {
  expect_ints(run_op("add", {ints(DType::u8, {2}, {200, 1}), ints(DType::u8, {2}, {100, 2})}),
              {44, 3});
  expect_ints(run_op("add", {ints(DType::i8, {1}, {127}), ints(DType::i8, {1}, {1})}), {-128});
  expect_ints(run_op("add", {i64({kMax64}), i64({1})}), {kMin64});
}

TEST(BinaryOps, AddPropagatesNaNAndInf) {
  expect_values(run_op("add", {f32({3}, {1, kInf, kInf}), f32({3}, {kNaN, 1, -kInf})}),
                {kNaN, kInf, kNaN});
}

TEST(BinaryOps, AddBroadcastsBothWays) {
  Tensor a = f32({2, 1}, {10, 20});
  Tensor b = f32({3}, {1, 2, 3});
  Tensor y = run_op("add", {a, b});
  EXPECT_EQ(y.shape(), (Shape{2, 3}));
  expect_values(y, {11, 12, 13, 21, 22, 23});
  Tensor s = run_op("add", {Tensor::scalar(DType::f32, 5), b});
  expect_values(s, {6, 7, 8});
}

TEST(BinaryOps, F16SumIsRoundedOnceTiesToEven) {
  // Spacing of f16 at 2048 is 2: 2049 ties to 2048 and 2051 ties to 2052.
  Tensor a = Tensor::from_doubles(DType::f16, {2}, {2048, 2048});
  Tensor b = Tensor::from_doubles(DType::f16, {2}, {1, 3});
  expect_values(run_op("add", {a, b}), {2048, 2052});
}

TEST(BinaryOps, Bf16ResultsAreRoundedToBf16) {
  // At 1 the bf16 spacing is 2^-7. f32 keeps 1 + 2^-8 and (1 + 2^-7)^2 = 1 + 2^-6 + 2^-14; bf16
  // rounds the tie to the even 1 and the square to 1 + 2^-6.
  Tensor one = Tensor::from_doubles(DType::bf16, {2}, {1, 1 + 0x1p-7});
  Tensor y = run_op("add", {one, Tensor::from_doubles(DType::bf16, {2}, {0x1p-8, 0x1p-8})});
  EXPECT_EQ(y.dtype(), DType::bf16);
  expect_values(y, {1, 1 + 0x1p-6});
  expect_values(run_op("mul", {one, one}), {1, 1 + 0x1p-6});
  expect_values(run_op("mul", {one.cast(DType::f32), one.cast(DType::f32)}),
                {1, 1 + 0x1p-6 + 0x1p-14});
}

TEST(BinaryOps, SubAndMulWrap) {
  expect_ints(run_op("sub", {ints(DType::u8, {1}, {3}), ints(DType::u8, {1}, {5})}), {254});
  expect_ints(run_op("sub", {i64({kMin64}), i64({1})}), {kMax64});
  expect_ints(run_op("mul", {i32({65536, -3}), i32({65536, 7})}), {0, -21});
  expect_ints(run_op("mul", {ints(DType::i16, {1}, {300}), ints(DType::i16, {1}, {300})}), {24464});
  expect_values(run_op("mul", {f32({2}, {0, -2}), f32({2}, {kInf, 1.5})}), {kNaN, -3});
}

TEST(BinaryOps, IntegerDivisionTruncatesAndIsTotal) {
  expect_ints(run_op("div", {i32({7, -7, 7, -7, 7, 0}), i32({2, 2, -2, -2, 0, 0})}),
              {3, -3, -3, 3, 0, 0});
  expect_ints(run_op("div", {i32({INT32_MIN}), i32({-1})}), {INT32_MIN});
  expect_ints(run_op("div", {i64({kMin64}), i64({-1})}), {kMin64});
  expect_ints(run_op("div", {ints(DType::u8, {1}, {250}), ints(DType::u8, {1}, {7})}), {35});
}

TEST(BinaryOps, FloatDivisionByZeroFollowsIeee) {
  expect_values(run_op("div", {f64({1, -1, 0, 1}), f64({0, 0, 0, -0.0})}),
                {kInf, -kInf, kNaN, -kInf});
  expect_values(run_op("div", {f64({1}), f64({4})}), {0.25});
}

TEST(BinaryOps, PowOnFloatsAndIntegers) {
  expect_values(run_op("pow", {f64({2, 2, -8, 0, -2}), f64({3, 0.5, 1.0 / 3, -1, 0.5})}),
                {8, std::sqrt(2.0), kNaN, kInf, kNaN});
  expect_ints(run_op("pow", {i32({3, 2, -2, 7}), i32({4, 31, 3, 0})}), {81, INT32_MIN, -8, 1});
  // Negative exponents: trunc(1 / a^-e), and 0 for a = 0.
  expect_ints(run_op("pow", {i32({2, 1, -1, -1, 0}), i32({-1, -5, -3, -2, -1})}), {0, 1, -1, 1, 0});
  uint64_t want = 1;
  for (int k = 0; k < 41; ++k) want *= 3;
  expect_ints(run_op("pow", {i64({3}), i64({41})}), {static_cast<int64_t>(want)});
}

TEST(BinaryOps, PowExponentMayHaveItsOwnDtype) {
  Tensor y = run_op("pow", {f32({2}, {2, 3}), i64({3, 2})});
  EXPECT_EQ(y.dtype(), DType::f32);
  expect_values(y, {8, 9});
  Tensor z = run_op("pow", {i32({4, 2}), f32({2}, {0.5, 3})});
  EXPECT_EQ(z.dtype(), DType::i32);
  expect_ints(z, {2, 8});
  std::string err = error_of([] { run_op("pow", {i32({1}), bools({1})}); });
  EXPECT_NE(err.find("input 'b'"), std::string::npos) << err;
}

TEST(BinaryOps, ModFollowsOnnxSignRules) {
  Tensor a = i32({-4, 7, 5, 4, -7, 8, 9});
  Tensor b = i32({2, -3, 8, -2, 3, 5, 0});
  expect_ints(run_op("mod", {a, b}), {0, -2, 5, 0, 2, 3, 0});
  expect_ints(run_op("mod", {a, b}, {{"fmod", int64_t{1}}}), {0, 1, 5, 0, -1, 3, 0});
  expect_ints(run_op("mod", {i64({kMin64, kMin64}), i64({-1, 0})}), {0, 0});
  Tensor fa = f64({-4.5, 7, 1});
  Tensor fb = f64({2, -3, 0});
  expect_values(run_op("mod", {fa, fb}, {{"fmod", int64_t{1}}}), {-0.5, 1, kNaN});
}

TEST(BinaryOps, ModRejectsFloatWithoutFmodAndBadFmod) {
  std::string err = error_of([] { run_op("mod", {f64({1}), f64({2})}); });
  EXPECT_NE(err.find("fmod=1"), std::string::npos) << err;
  err = error_of([] { run_op("mod", {i32({1}), i32({2})}, {{"fmod", int64_t{2}}}); });
  EXPECT_NE(err.find("must be 0 or 1"), std::string::npos) << err;
}

TEST(BinaryOps, ComparisonsGiveBoolAndNaNComparesFalse) {
  Tensor a = f32({3}, {1, 2, kNaN});
  Tensor b = f32({3}, {2, 2, kNaN});
  Tensor lt = run_op("less", {a, b});
  EXPECT_EQ(lt.dtype(), DType::boolean);
  expect_ints(lt, {1, 0, 0});
  expect_ints(run_op("equal", {a, b}), {0, 1, 0});
  expect_ints(run_op("greater", {a, b}), {0, 0, 0});
  expect_ints(run_op("less_equal", {a, b}), {1, 1, 0});
  expect_ints(run_op("greater_equal", {a, b}), {0, 1, 0});
}

TEST(BinaryOps, IntegerComparisonsAreExact) {
  int64_t big = int64_t{1} << 62;  // big and big + 1 are the same double
  expect_ints(run_op("greater", {i64({big + 1}), i64({big})}), {1});
  expect_ints(run_op("equal", {i64({big + 1}), i64({big})}), {0});
  expect_ints(run_op("equal", {bools({1, 0}), bools({1, 1})}), {1, 0});
  std::string err = error_of([] { run_op("less", {bools({1}), bools({0})}); });
  EXPECT_NE(err.find("numeric"), std::string::npos) << err;
}

TEST(BinaryOps, LogicTruthTablesAndBroadcast) {
  Tensor a = bools({0, 0, 1, 1});
  Tensor b = bools({0, 1, 0, 1});
  expect_ints(run_op("and", {a, b}), {0, 0, 0, 1});
  expect_ints(run_op("or", {a, b}), {0, 1, 1, 1});
  expect_ints(run_op("xor", {a, b}), {0, 1, 1, 0});
  Tensor t = Tensor::from_ints(DType::boolean, {}, {1});
  expect_ints(run_op("xor", {a, t}), {1, 1, 0, 0});
  std::string err = error_of([] { run_op("and", {i32({1}), i32({1})}); });
  EXPECT_NE(err.find("needs bool"), std::string::npos) << err;
}

TEST(BinaryOps, PreluBroadcastsSlopeToX) {
  Tensor x = f32({2, 2}, {-1, 2, -3, 4});
  Tensor slope = f32({2}, {0.5, 0.25});
  Tensor y = run_op("prelu", {x, slope});
  EXPECT_EQ(y.shape(), (Shape{2, 2}));
  expect_values(y, {-0.5, 2, -1.5, 4});
  expect_ints(run_op("prelu", {i32({-3, 3}), i32({2, 2})}), {-6, 3});
  std::string err = error_of([] {
    run_op("prelu", {f32({2}, {1, 2}), f32({2, 2}, {1, 2, 3, 4})});
  });
  EXPECT_NE(err.find("must broadcast to x's shape [2]"), std::string::npos) << err;
}

TEST(BinaryOps, InferenceErrorsNameTheProblem) {
  std::string err = error_of([] { infer_op("add", {{DType::f32, {2}}, {DType::i32, {2}}}); });
  EXPECT_EQ(err, "inputs must share one dtype, got f32 and i32");
  err = error_of([] { infer_op("mul", {{DType::f32, {2}}, {DType::f32, {3}}}); });
  EXPECT_EQ(err, "shapes [2] and [3] do not broadcast");
  err = error_of([] { infer_op("sub", {{DType::boolean, {2}}, {DType::boolean, {2}}}); });
  EXPECT_EQ(err, "op 'sub' needs a numeric dtype for input 'a', got bool");
}

TEST(BinaryOps, DomainsAndOnnxMapping) {
  const OpRegistry& reg = OpRegistry::instance();
  EXPECT_EQ(reg.get("div").domain_of_input(1), ValueDomain::NonZero);
  EXPECT_EQ(reg.get("mod").domain_of_input(1), ValueDomain::NonZero);
  EXPECT_EQ(reg.get("pow").domain_of_input(0), ValueDomain::PowBase);
  EXPECT_EQ(reg.get("add").domain_of_input(1), ValueDomain::Any);
  EXPECT_EQ(reg.find_onnx("LessOrEqual")->name, "less_equal");
  EXPECT_EQ(reg.find_onnx("PRelu")->name, "prelu");
  const AttrSpec* fmod = reg.get("mod").find_attr("fmod");
  ASSERT_NE(fmod, nullptr);
  EXPECT_EQ(std::get<int64_t>(*fmod->default_value), 0);
  for (const char* name : {"add", "sub", "mul", "div", "pow", "mod", "equal", "less", "greater",
                           "less_equal", "greater_equal", "and", "or", "xor", "prelu"}) {
    const OpDef& op = reg.get(name);
    EXPECT_FALSE(op.doc.empty()) << name;
    EXPECT_TRUE(op.has_tag("binary")) << name;
  }
}

}  // namespace
}  // namespace retort
