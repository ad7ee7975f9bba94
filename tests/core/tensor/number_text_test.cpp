#include "core/tensor/number_text.h"

#include <cmath>
#include <cstring>
#include <limits>

#include <gtest/gtest.h>

#include "core/base/bfloat16.h"
#include "core/base/half.h"
#include "core/tensor/tensor.h"

namespace retort {
namespace {

TEST(NumberText, FloatLiteralsAlwaysLookLikeFloats) {
  EXPECT_EQ(float_literal(1.0), "1.0");
  EXPECT_EQ(float_literal(-0.0), "-0.0");
  EXPECT_EQ(float_literal(0.1), "0.1");
  EXPECT_EQ(float_literal(1e300), "1e+300");
  EXPECT_EQ(float_literal(std::numeric_limits<double>::quiet_NaN()), "nan");
  EXPECT_EQ(float_literal(-std::numeric_limits<double>::infinity()), "-inf");
}

TEST(NumberText, ShortestTextPerDType) {
  EXPECT_EQ(float_literal_for(static_cast<float>(0.1), DType::f32), "0.1");
  EXPECT_EQ(float_literal_for(half_to_float(float_to_half(0.1f)), DType::f16), "0.1");
  EXPECT_EQ(float_literal_for(65504.0, DType::f16), "65504.0");
  EXPECT_EQ(float_literal_for(0.1, DType::f64), "0.1");
}

TEST(NumberText, EveryHalfReadsBackExactly) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    uint16_t h = static_cast<uint16_t>(bits);
    double v = half_to_float(h);
    if (std::isnan(v)) continue;
    std::string text = float_literal_for(v, DType::f16);
    auto parsed = parse_float_text(text);
    ASSERT_TRUE(parsed) << text;
    Tensor t = Tensor::scalar(DType::f16, *parsed);
    ASSERT_EQ(t.data<uint16_t>()[0], h) << text;
  }
}

// bf16 values read back exactly from at most 4 significant digits (3.39e+38 for the largest).
TEST(NumberText, EveryBfloat16ReadsBackExactly) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    uint16_t b = static_cast<uint16_t>(bits);
    double v = bfloat16_to_float(b);
    if (std::isnan(v)) continue;
    std::string text = float_literal_for(v, DType::bf16);
    auto parsed = parse_float_text(text);
    ASSERT_TRUE(parsed) << text;
    ASSERT_EQ(Tensor::scalar(DType::bf16, *parsed).data<uint16_t>()[0], b) << text;
  }
  EXPECT_EQ(float_literal_for(bfloat16_to_float(float_to_bfloat16(0.1f)), DType::bf16), "0.1");
  EXPECT_EQ(float_literal_for(256.0, DType::bf16), "256.0");
  EXPECT_EQ(float_literal_for(float_max(DType::bf16), DType::bf16), "3.39e+38");
}

size_t significant_digits(const std::string& text) {
  std::string digits;
  for (char c : text.substr(0, text.find_first_of("eE")))
    if (c >= '0' && c <= '9') digits += c;
  digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size()));
  digits.erase(digits.find_last_not_of('0') + 1);
  return digits.size();
}

TEST(NumberText, F32ValuesReadBackExactly) {
  uint32_t bits = 1;
  for (int i = 0; i < 200000; ++i) {
    bits = bits * 1664525u + 1013904223u;
    float f;
    std::memcpy(&f, &bits, 4);
    if (std::isnan(f)) continue;
    std::string text = float_literal_for(f, DType::f32);
    auto parsed = parse_float_text(text);
    ASSERT_TRUE(parsed) << text;
    ASSERT_EQ(static_cast<float>(*parsed), f) << text;
    ASSERT_LE(significant_digits(text), 9u) << text;  // enough for any f32
  }
}

TEST(NumberText, ParsesOnlyWholeNumbers) {
  EXPECT_EQ(parse_float_text("2.5"), 2.5);
  EXPECT_EQ(parse_float_text("-1e-3"), -1e-3);
  EXPECT_EQ(parse_float_text("5e-324"), 5e-324);
  EXPECT_TRUE(std::isinf(*parse_float_text("-inf")));
  EXPECT_FALSE(parse_float_text("2.5x"));
  EXPECT_FALSE(parse_float_text(""));
  EXPECT_FALSE(parse_float_text("1e999"));
  EXPECT_FALSE(parse_float_text("infinity"));
}

}  // namespace
}  // namespace retort
