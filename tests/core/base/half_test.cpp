#include "core/base/half.h"

#include <cmath>

#include <gtest/gtest.h>

namespace retort {
namespace {

TEST(Half, RoundTripsEveryFiniteHalf) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff)) continue;  // NaN payloads
    EXPECT_EQ(float_to_half(half_to_float(static_cast<uint16_t>(h))), h) << h;
  }
}

TEST(Half, RoundsToNearestEven) {
  EXPECT_EQ(half_to_float(float_to_half(1.0f + 1.0f / 2048)), 1.0f);  // tie: down to even
  EXPECT_EQ(half_to_float(float_to_half(1.0f + 3.0f / 2048)), 1.0f + 2.0f / 1024);
  EXPECT_TRUE(std::isinf(half_to_float(float_to_half(70000.0f))));
  EXPECT_EQ(half_to_float(float_to_half(5.9604645e-8f)), 5.9604645e-8f);  // smallest subnormal
}

}  // namespace
}  // namespace retort
