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

}  // namespace
}  // namespace retort
