#include "core/base/bfloat16.h"

#include <bit>
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "core/base/dtype.h"

namespace retort {
namespace {

float bf16(float f) {
  return bfloat16_to_float(float_to_bfloat16(f));
}

TEST(Bfloat16, RoundTripsEveryFiniteBfloat16) {
  for (uint32_t b = 0; b < 0x10000; ++b) {
    if ((b & 0x7f80) == 0x7f80) continue;  // inf and NaN
    EXPECT_EQ(float_to_bfloat16(bfloat16_to_float(static_cast<uint16_t>(b))), b) << b;
  }
}

TEST(Bfloat16, IsTheUpperHalfOfAFloat) {
  EXPECT_EQ(float_to_bfloat16(1.0f), 0x3f80);
  EXPECT_EQ(float_to_bfloat16(-2.0f), 0xc000);
  EXPECT_EQ(bfloat16_to_float(0x4049), 3.140625f);
  EXPECT_EQ(bf16(0x1p-133f), 0x1p-133f);  // the smallest subnormal stays exact
}

TEST(Bfloat16, RoundsToNearestTiesToEven) {
  // At 1 the spacing is 2^-7: 1 + 2^-8 is a tie (down to the even 1), 1 + 3 * 2^-8 a tie up.
  EXPECT_EQ(bf16(1.0f + 0x1p-8f), 1.0f);
  EXPECT_EQ(bf16(1.0f + 3 * 0x1p-8f), 1.0f + 0x1p-6f);
  EXPECT_EQ(bf16(1.0f + 0x1p-8f + 0x1p-20f), 1.0f + 0x1p-7f);  // past the tie: up
  EXPECT_EQ(bf16(1.0f + 0x1p-8f - 0x1p-20f), 1.0f);            // short of it: down
  EXPECT_EQ(bf16(-257.0f), -256.0f);
  EXPECT_EQ(bf16(3.14159265f), 3.140625f);
}

TEST(Bfloat16, OverflowsToInfinityAndKeepsNaNQuiet) {
  const float max = static_cast<float>(float_max(DType::bf16));
  EXPECT_EQ(bf16(max), max);
  EXPECT_EQ(bf16(std::numeric_limits<float>::max()), HUGE_VALF);  // rounds past the largest
  EXPECT_EQ(bf16(-std::numeric_limits<float>::max()), -HUGE_VALF);
  EXPECT_EQ(bf16(HUGE_VALF), HUGE_VALF);
  // A signalling NaN whose payload sits in the dropped half would become inf if truncated.
  uint16_t b = float_to_bfloat16(std::bit_cast<float>(0x7f800001u));
  EXPECT_TRUE(std::isnan(bfloat16_to_float(b)));
  EXPECT_TRUE(b & 0x40);  // quiet
  EXPECT_TRUE(std::signbit(bfloat16_to_float(float_to_bfloat16(-std::nanf("")))));
}

TEST(Bfloat16, ADoubleRoundsThroughFloat) {
  // 1 + 2^-8 + 2^-30 is past the bf16 tie, but f32 rounds it to the tie, which goes to even:
  // the f32 computation's result, as ONNX's Cast and reference round a double.
  EXPECT_EQ(round_to_bfloat16(1.0 + 0x1p-8 + 0x1p-30), 1.0);
  EXPECT_EQ(round_to_bfloat16(0.1), 0.10009765625);
  EXPECT_EQ(float_epsilon(DType::bf16), 0x1p-7);
}

}  // namespace
}  // namespace retort
