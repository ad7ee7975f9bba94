#include "core/base/ulp.h"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "core/base/half.h"

namespace retort {
namespace {

TEST(Ulp, CountsRepresentableValuesOfTheDtype) {
  EXPECT_EQ(ulp_distance(1.0, 1.0, DType::f32), 0);
  EXPECT_EQ(ulp_distance(0.0, -0.0, DType::f32), 0);
  float next = std::nextafter(1.0f, 2.0f);
  EXPECT_EQ(ulp_distance(1.0, next, DType::f32), 1);
  EXPECT_EQ(ulp_distance(next, 1.0, DType::f32), 1);
  // The same two numbers are one f16 ulp apart at 1 (2^-10) and 2^13 f32 ulps apart.
  double h = 1.0 + 1.0 / 1024;
  EXPECT_EQ(ulp_distance(1.0, h, DType::f16), 1);
  EXPECT_EQ(ulp_distance(1.0, h, DType::f32), 8192);
  EXPECT_EQ(ulp_distance(1.0, std::nextafter(1.0, 2.0), DType::f64), 1);
}

TEST(Ulp, CountsAcrossZeroAndAtTheExtremes) {
  float tiny = std::numeric_limits<float>::denorm_min();
  EXPECT_EQ(ulp_distance(tiny, -tiny, DType::f32), 2);
  double big = std::numeric_limits<double>::max();
  EXPECT_EQ(ulp_distance(big, -big, DType::f64), 2 * 9218868437227405311.0);
  double h_max = half_to_float(0x7bff);  // 65504
  EXPECT_EQ(ulp_distance(h_max, half_to_float(0x7bfe), DType::f16), 1);
}

TEST(Ulp, Bf16HasEightSignificantBitsAndF32sRange) {
  // 1 + 2^-7 is one bf16 ulp from 1 (float_epsilon), 2^16 f32 ulps.
  EXPECT_EQ(ulp_distance(1.0, 1 + 0x1p-7, DType::bf16), 1);
  EXPECT_EQ(ulp_distance(1.0, 1 + 0x1p-7, DType::f32), 65536);
  EXPECT_EQ(ulp_distance(-1.0, 1.0, DType::bf16), 2 * 0x3f80);
  EXPECT_EQ(ulp_of(1.0, DType::bf16), 0x1p-7);
  EXPECT_EQ(ulp_of(-3.0, DType::bf16), 0x1p-6);
  EXPECT_EQ(ulp_of(1e30, DType::bf16), 0x1p92);  // 1e30 is in [2^99, 2^100)
  EXPECT_EQ(ulp_of(0.0, DType::bf16), 0x1p-133);
  EXPECT_EQ(ulp_distance(1e30, 1e30 + ulp_of(1e30, DType::bf16), DType::bf16), 1);
}

TEST(Ulp, TheSpacingOfEachDtypesValues) {
  EXPECT_EQ(ulp_of(1.0, DType::f16), 0x1p-10);
  EXPECT_EQ(ulp_of(-1.5, DType::f16), 0x1p-10);
  EXPECT_EQ(ulp_of(65504, DType::f16), 32);
  EXPECT_EQ(ulp_of(0x1p-20, DType::f16), 0x1p-24);  // subnormal
  EXPECT_EQ(ulp_of(0.0, DType::f16), 0x1p-24);
  EXPECT_EQ(ulp_of(1.0, DType::f32), 0x1p-23);
  EXPECT_EQ(ulp_of(1.0, DType::f64), 0x1p-52);
  // Each is the distance to a neighbour ulp_distance counts as 1.
  for (double v : {0.3, 1e-30, 12345.678})
    for (DType t : {DType::f16, DType::f32, DType::f64}) {
      if (t == DType::f16 && v < 1e-8) continue;
      EXPECT_EQ(ulp_distance(v, v + ulp_of(v, t), t), 1) << v << " " << dtype_name(t);
    }
}

}  // namespace
}  // namespace retort
