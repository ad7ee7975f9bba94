#include "core/tensor/value_domain.h"

#include <limits>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/ops/registry.h"
#include "tests/core/ops/op_test_util.h"

namespace retort {
namespace {

using namespace testing;

TEST(ValueDomain, InDomain) {
  EXPECT_FALSE(in_domain(0, ValueDomain::Positive));
  EXPECT_TRUE(in_domain(0, ValueDomain::NonNegative));
  EXPECT_FALSE(in_domain(1.5, ValueDomain::UnitClosed));
  EXPECT_FALSE(in_domain(kNaN, ValueDomain::NonZero));
  EXPECT_TRUE(in_domain(-3, ValueDomain::Any));
}

TEST(ValueDomain, AxisIndexHoldsTheIndicesOfItsAxis) {
  InputDomain d{ValueDomain::AxisIndex, 3};
  EXPECT_EQ(d.str(), "[-3, 2]");
  for (double v : {-3.0, -1.0, 0.0, 2.0}) EXPECT_TRUE(in_domain(v, d)) << v;
  for (double v : {-4.0, 3.0, 1e19, kNaN}) EXPECT_FALSE(in_domain(v, d)) << v;
  // An empty axis has no index, and an AxisIndex not resolved for a node has no size.
  EXPECT_FALSE(in_domain(0, InputDomain{ValueDomain::AxisIndex, 0}));
  EXPECT_FALSE(in_domain(0, ValueDomain::AxisIndex));
}

TEST(ValueDomain, GatherIndicesIndexTheGatheredAxisOfData) {
  const OpDef& gather = OpRegistry::instance().get("gather");
  EXPECT_EQ(gather.domain_of_input(0), ValueDomain::Any);
  EXPECT_EQ(gather.domain_of_input(1), ValueDomain::AxisIndex);
  std::vector<TensorType> in = {{DType::f32, {4, 5, 6}}, {DType::i64, {2}}};
  InputDomain d = gather.domain_of_input(1, in, {{"axis", int64_t{1}}});
  EXPECT_EQ(d.kind, ValueDomain::AxisIndex);
  EXPECT_EQ(d.axis_size, 5);
  EXPECT_EQ(gather.domain_of_input(1, in, {{"axis", int64_t{-1}}}).axis_size, 6);
  EXPECT_EQ(gather.domain_of_input(0, in, {{"axis", int64_t{0}}}).kind, ValueDomain::Any);
  EXPECT_THAT(error_of([&] {
                gather.domain_of_input(1, in, {{"axis", int64_t{3}}});
              }),
              ::testing::HasSubstr("'axis' 3 is out of range [-3, 2]"));
}

// sin, cos and tan take an argument whose ulp in its dtype is within that dtype's tolerance;
// fmod a dividend whose quotient by the divisor is below 1 / eps. Integers are exact: Any.
TEST(ValueDomain, PeriodicAndFmodArgumentsAreBoundedByTheirDtypesPrecision) {
  const OpRegistry& reg = OpRegistry::instance();
  const OpDef& sin = reg.get("sin");
  EXPECT_EQ(sin.domain_of_input(0), ValueDomain::WellConditioned);
  for (auto [dtype, bound] : {std::pair{DType::f16, 16.0}, std::pair{DType::f32, 8192.0},
                              std::pair{DType::f64, 0x1p29}}) {
    InputDomain d = sin.domain_of_input(0, {{dtype, {2}}}, {});
    EXPECT_EQ(d.kind, ValueDomain::WellConditioned) << dtype_name(dtype);
    EXPECT_TRUE(in_domain(-bound, d)) << dtype_name(dtype);
    EXPECT_FALSE(in_domain(bound * 2, d)) << dtype_name(dtype);
    // Every runtime gives NaN for NaN and the infinities.
    EXPECT_TRUE(in_domain(kNaN, d) && in_domain(kInf, d)) << dtype_name(dtype);
  }
  EXPECT_EQ(sin.domain_of_input(0, {{DType::f32, {2}}}, {}).str(),
            "NaN, infinite or in [-8192, 8192] (well-conditioned)");

  const OpDef& mod = reg.get("mod");
  EXPECT_EQ(mod.domain_of_input(0), ValueDomain::FmodDividend);
  EXPECT_EQ(mod.domain_of_input(0, {{DType::i64, {2}}, {DType::i64, {2}}}, {}).kind,
            ValueDomain::Any);
  EXPECT_TRUE(fmod_conditioned(1e15, 3, DType::f64));
  EXPECT_FALSE(fmod_conditioned(8.75e47, 3, DType::f64));
  EXPECT_FALSE(fmod_conditioned(1e8, 3, DType::f32));
  EXPECT_TRUE(fmod_conditioned(kInf, 3, DType::f32));
  EXPECT_TRUE(drawn_as_any(ValueDomain::WellConditioned) &&
              drawn_as_any(ValueDomain::FmodDividend));
  EXPECT_FALSE(drawn_as_any(ValueDomain::Finite));
}

}  // namespace
}  // namespace retort
