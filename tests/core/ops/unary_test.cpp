#include <cmath>

#include <gtest/gtest.h>

#include "core/base/half.h"
#include "core/ops/registry.h"
#include "tests/core/ops/op_test_util.h"

namespace retort {
namespace {

using namespace testing;

TEST(UnaryOps, AbsFloatAndWrappingIntegers) {
  expect_values(run_op("abs", {f32({3}, {-1.5, 2, kNaN})}), {1.5, 2, kNaN});
  expect_ints(run_op("abs", {ints(DType::i8, {3}, {-128, -5, 7})}), {-128, 5, 7});
  expect_ints(run_op("abs", {ints(DType::u8, {1}, {200})}), {200});
  expect_ints(run_op("abs", {ints(DType::i64, {1}, {kMin64})}), {kMin64});
}

TEST(UnaryOps, NegWrapsAndRejectsUnsigned) {
  expect_ints(run_op("neg", {ints(DType::i32, {2}, {INT32_MIN, 5})}), {INT32_MIN, -5});
  expect_values(run_op("neg", {f32({2}, {0.5, kNaN})}), {-0.5, kNaN});
  std::string err = error_of([] { run_op("neg", {ints(DType::u8, {1}, {1})}); });
  EXPECT_NE(err.find("signed numeric"), std::string::npos) << err;
  EXPECT_NE(err.find("u8"), std::string::npos) << err;
}

TEST(UnaryOps, SignOfFloatsAndIntegers) {
  expect_values(run_op("sign", {f32({4}, {-3, 0, 2, kNaN})}), {-1, 0, 1, kNaN});
  expect_ints(run_op("sign", {ints(DType::i64, {3}, {-9, 0, 9})}), {-1, 0, 1});
  expect_ints(run_op("sign", {ints(DType::u8, {2}, {0, 255})}), {0, 1});
}

TEST(UnaryOps, ReluKeepsNaNAndTakesSignedIntegers) {
  expect_values(run_op("relu", {f32({4}, {-1, 0, 2, kNaN})}), {0, 0, 2, kNaN});
  expect_ints(run_op("relu", {ints(DType::i32, {2}, {-5, 5})}), {0, 5});
}

TEST(UnaryOps, ExpLogSqrtReciprocalEdgeCases) {
  expect_values(run_op("exp", {f64({0, 1, -kInf, 1000})}), {1, std::exp(1.0), 0, kInf});
  expect_values(run_op("log", {f64({1, 0, -1, kInf})}), {0, -kInf, kNaN, kInf});
  expect_values(run_op("sqrt", {f64({4, -1, 0})}), {2, kNaN, 0});
  Tensor r = run_op("reciprocal", {f64({4, 0, -0.0})});
  expect_values(r, {0.25, kInf, -kInf});
}

TEST(UnaryOps, F16ResultsAreRoundedOnceToNearestEven) {
  Tensor x = Tensor::from_doubles(DType::f16, {2}, {1, -1});
  Tensor y = run_op("exp", {x});
  // e = 2.71828...; the f16 neighbours are 2.716796875 and 2.71875.
  EXPECT_EQ(y.data<uint16_t>()[0], float_to_half(2.71875f));
  EXPECT_EQ(y.get(0), 2.71875);
  EXPECT_EQ(y.get(1), static_cast<double>(half_to_float(float_to_half(std::exp(-1.0f)))));
}

TEST(UnaryOps, ActivationsWithDefaultAndGivenAttributes) {
  const double alpha_001 = static_cast<float>(0.01), alpha_02 = static_cast<float>(0.2);
  expect_values(run_op("leaky_relu", {f64({-2, 3})}), {-2 * alpha_001, 3});
  expect_values(run_op("leaky_relu", {f64({-2, 3})}, {{"alpha", 0.5}}), {-1, 3});
  expect_values(run_op("elu", {f64({-1, 2})}), {std::expm1(-1.0), 2});
  expect_values(run_op("elu", {f64({-1})}, {{"alpha", 2.0}}), {2 * std::expm1(-1.0)});
  double alpha = 1.67326319217681884765625, gamma = 1.05070102214813232421875;
  expect_values(run_op("selu", {f64({1, -1, 0})}), {gamma, gamma * alpha * std::expm1(-1.0), 0});
  expect_values(run_op("selu", {f64({2, -1})}, {{"alpha", 2.0}, {"gamma", 3.0}}),
                {6, 6 * std::expm1(-1.0)});
  expect_values(run_op("hard_sigmoid", {f64({0, 10, -10, 1, kNaN})}),
                {0.5, 1, 0, alpha_02 + 0.5, kNaN});
  expect_values(run_op("hard_sigmoid", {f64({1})}, {{"alpha", 0.5}, {"beta", 0.0}}), {0.5});
}

// ONNX has no double attribute: the exported model holds float(0.01), and every backend computes
// with it, so the reference must too (issue 22, third measurement's cause 15).
TEST(UnaryOps, FloatAttributesAreTheFloat32ValuesTheExportedModelHolds) {
  Tensor out = run_op("leaky_relu", {f64({-1})}, {{"alpha", 0.01}});
  EXPECT_EQ(out.get(0), -0.009999999776482582);
  EXPECT_NE(out.get(0), -0.01);
  EXPECT_EQ(run_op("hard_sigmoid", {f64({1})}, {{"alpha", 0.1}, {"beta", 0.3}}).get(0),
            static_cast<double>(0.1f) + static_cast<double>(0.3f));
}

TEST(UnaryOps, SigmoidSoftplusSoftsignDoNotOverflow) {
  expect_values(run_op("sigmoid", {f64({0, -1000, 1000, kNaN})}), {0.5, 0, 1, kNaN});
  expect_values(run_op("sigmoid", {f64({2})}), {1 / (1 + std::exp(-2.0))}, 1e-16);
  expect_values(run_op("softplus", {f64({0, 1000, -1000, 1})}),
                {std::log(2.0), 1000, 0, std::log1p(std::exp(1.0))}, 1e-15);
  expect_values(run_op("softsign", {f64({1, -3, 0})}), {0.5, -0.75, 0});
}

TEST(UnaryOps, TrigonometricAndHyperbolic) {
  const double pi = 3.14159265358979323846;
  expect_values(run_op("tanh", {f64({0, 1000})}), {0, 1});
  expect_values(run_op("sin", {f64({0, pi / 2})}), {0, 1}, 1e-15);
  expect_values(run_op("cos", {f64({0, pi})}), {1, -1}, 1e-15);
  expect_values(run_op("tan", {f64({0, pi / 4})}), {0, 1}, 1e-15);
  expect_values(run_op("asin", {f64({1, 0, 2})}), {pi / 2, 0, kNaN}, 1e-15);
  expect_values(run_op("acos", {f64({-1, 1, -1.5})}), {pi, 0, kNaN}, 1e-15);
  expect_values(run_op("atan", {f64({1, kInf})}), {pi / 4, pi / 2}, 1e-15);
  expect_values(run_op("sinh", {f64({0, 1})}), {0, std::sinh(1.0)});
  expect_values(run_op("cosh", {f64({0, 1})}), {1, std::cosh(1.0)});
  expect_values(run_op("erf", {f64({0, kInf, -kInf, 1})}), {0, 1, -1, 0.8427007929497149}, 1e-15);
}

TEST(UnaryOps, FloorCeilAndRoundHalfToEven) {
  expect_values(run_op("floor", {f32({3}, {-1.5, 1.5, kNaN})}), {-2, 1, kNaN});
  expect_values(run_op("ceil", {f32({3}, {-1.5, 1.5, kInf})}), {-1, 2, kInf});
  Tensor r = run_op("round", {f64({0.5, 1.5, 2.5, -0.5, -2.5, 2.4, 2.6, -3.5, kNaN})});
  expect_values(r, {0, 2, 2, 0, -2, 2, 3, -4, kNaN});
  EXPECT_TRUE(std::signbit(r.get(3)));  // round(-0.5) is -0
  Tensor h = Tensor::from_doubles(DType::f16, {2}, {514.5, 515.5});
  expect_values(run_op("round", {h}), {514, 516});
}

TEST(UnaryOps, NotTakesOnlyBool) {
  expect_ints(run_op("not", {ints(DType::boolean, {2}, {1, 0})}), {0, 1});
  std::string err = error_of([] { run_op("not", {f32({1}, {1})}); });
  EXPECT_NE(err.find("needs bool"), std::string::npos) << err;
}

TEST(UnaryOps, IdentityCopiesEveryDtypeExactly) {
  int64_t big = (int64_t{1} << 62) + 1;  // not representable in double
  expect_ints(run_op("identity", {ints(DType::i64, {1}, {big})}), {big});
  Tensor b = ints(DType::boolean, {2}, {1, 0});
  EXPECT_EQ(run_op("identity", {b}), b);
  Tensor h = Tensor::from_doubles(DType::f16, {2}, {0.1, kNaN});
  EXPECT_EQ(run_op("identity", {h}), h);
}

TEST(UnaryOps, FloatOnlyOpsRejectIntegers) {
  std::string err = error_of([] { run_op("exp", {ints(DType::i32, {1}, {1})}); });
  EXPECT_EQ(err, "op 'exp' needs a float dtype for input 'x', got i32");
}

TEST(UnaryOps, InputDomainsAndOnnxMapping) {
  const OpRegistry& reg = OpRegistry::instance();
  EXPECT_EQ(reg.get("log").domain_of_input(0), ValueDomain::Positive);
  EXPECT_EQ(reg.get("sqrt").domain_of_input(0), ValueDomain::NonNegative);
  EXPECT_EQ(reg.get("reciprocal").domain_of_input(0), ValueDomain::NonZero);
  EXPECT_EQ(reg.get("asin").domain_of_input(0), ValueDomain::UnitClosed);
  EXPECT_EQ(reg.get("acos").domain_of_input(0), ValueDomain::UnitClosed);
  EXPECT_EQ(reg.get("exp").domain_of_input(0), ValueDomain::Any);
  ASSERT_NE(reg.find_onnx("LeakyRelu"), nullptr);
  EXPECT_EQ(reg.find_onnx("LeakyRelu")->name, "leaky_relu");
  EXPECT_EQ(reg.find_onnx("HardSigmoid")->name, "hard_sigmoid");
  for (const char* name :
       {"abs",  "neg",   "exp",     "log",          "sqrt",     "reciprocal", "relu", "leaky_relu",
        "elu",  "selu",  "sigmoid", "hard_sigmoid", "softplus", "softsign",   "tanh", "sin",
        "cos",  "tan",   "asin",    "acos",         "atan",     "sinh",       "cosh", "floor",
        "ceil", "round", "sign",    "erf",          "not",      "identity"}) {
    const OpDef& op = reg.get(name);
    EXPECT_FALSE(op.doc.empty()) << name;
    EXPECT_FALSE(op.onnx.op_type.empty()) << name;
    EXPECT_TRUE(op.has_tag("elementwise")) << name;
  }
}

}  // namespace
}  // namespace retort
