#include "core/compare/tolerance.h"

#include <gtest/gtest.h>

#include "core/base/error.h"

namespace retort {
namespace {

TEST(CompareTolerance, DefaultsAndExactIntegers) {
  ToleranceTable t;
  EXPECT_DOUBLE_EQ(t.of(DType::f32).atol, 1e-3);
  EXPECT_DOUBLE_EQ(t.of(DType::f64).rtol, 1e-7);
  EXPECT_DOUBLE_EQ(t.of(DType::i32).atol, 0);
  EXPECT_DOUBLE_EQ(t.of(DType::boolean).rtol, 0);
  // bf16 keeps 8 significant bits: its default is six of its ulps at 1 (2^-7 each).
  EXPECT_DOUBLE_EQ(t.of(DType::bf16).atol, 5e-2);
  EXPECT_TRUE(t.of(DType::bf16).allows(1 + 0x1p-7, 1, DType::bf16));
  EXPECT_FALSE(t.of(DType::f16).allows(1.03, 1, DType::f16));
  EXPECT_NE(t.str().find("bf16 atol=0.05 rtol=0.05"), std::string::npos);
}

TEST(CompareTolerance, SetChecksItsValues) {
  ToleranceTable t;
  t.set(DType::f16, {0.5, 0.25});
  EXPECT_DOUBLE_EQ(t.of(DType::f16).atol, 0.5);
  EXPECT_THROW(t.set(DType::i64, {1, 0}), Error);
  EXPECT_THROW(t.set(DType::f32, {-1, 0}), Error);
  double atol = 0.1;
  t.set_all_floats(&atol, nullptr);
  EXPECT_DOUBLE_EQ(t.of(DType::f64).atol, 0.1);
  EXPECT_DOUBLE_EQ(t.of(DType::f64).rtol, 1e-7);
  EXPECT_NE(t.str().find("f32 atol=0.1 rtol=0.001"), std::string::npos);
}

// ulps mean the same at every magnitude and in the declared dtype: one f16 rounding is one
// f16 ulp whether the value is 1 or 60000, and many f32 ulps.
TEST(CompareTolerance, UlpsOfTheDeclaredDtype) {
  Tolerance strict{0, 0, 0};
  Tolerance two_ulps{0, 0, 2};
  double one = 1.0, near_one = 1.0 + 2.0 / 1024, far_one = 1.0 + 3.0 / 1024;
  EXPECT_FALSE(strict.allows(near_one, one, DType::f16));
  EXPECT_TRUE(two_ulps.allows(near_one, one, DType::f16));
  EXPECT_FALSE(two_ulps.allows(far_one, one, DType::f16));
  EXPECT_TRUE(two_ulps.allows(60000 + 64, 60000, DType::f16));  // f16 ulp at 60000 is 32
  EXPECT_FALSE(two_ulps.allows(near_one, one, DType::f32));     // 2^12 f32 ulps
  EXPECT_TRUE((Tolerance{1e-2, 0, 0}.allows(near_one, one, DType::f32)));
  ToleranceTable t;
  t.set(DType::f16, {0, 0, 2});
  EXPECT_NE(t.str().find("f16 atol=0 rtol=0 ulps=2"), std::string::npos) << t.str();
  EXPECT_THROW(t.set(DType::f16, {0, 0, -1}), Error);
  double ulps = 4;
  t.set_all_floats(nullptr, nullptr, &ulps);
  EXPECT_DOUBLE_EQ(t.of(DType::f64).ulps, 4);
  EXPECT_DOUBLE_EQ(t.of(DType::f64).atol, 1e-7);
}

}  // namespace
}  // namespace retort
