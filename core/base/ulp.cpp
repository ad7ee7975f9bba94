#include "core/base/ulp.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

#include "core/base/bfloat16.h"
#include "core/base/half.h"

namespace retort {

namespace {

// The value's bits as a signed count of representable values from zero: IEEE floats of one
// sign are ordered like their bit patterns, so sign-magnitude becomes two's complement.
int64_t ordered_bits(double v, DType dtype) {
  uint64_t bits = 0, sign = 0;
  switch (dtype) {
    case DType::f16:
      bits = float_to_half(static_cast<float>(v));
      sign = 0x8000;
      break;
    case DType::bf16:
      bits = float_to_bfloat16(static_cast<float>(v));
      sign = 0x8000;
      break;
    case DType::f32:
      bits = std::bit_cast<uint32_t>(static_cast<float>(v));
      sign = 0x80000000u;
      break;
    default:
      bits = std::bit_cast<uint64_t>(v);
      sign = uint64_t{1} << 63;
      break;
  }
  auto magnitude = static_cast<int64_t>(bits & ~sign);
  return (bits & sign) ? -magnitude : magnitude;
}

}  // namespace

double ulp_distance(double a, double b, DType dtype) {
  __int128 d = static_cast<__int128>(ordered_bits(a, dtype)) - ordered_bits(b, dtype);
  return static_cast<double>(d < 0 ? -d : d);
}

double ulp_of(double v, DType dtype) {
  switch (dtype) {
    case DType::f16: {
      double a =
          std::fabs(static_cast<double>(half_to_float(float_to_half(static_cast<float>(v)))));
      if (a == 0) return 0x1p-24;
      int e = 0;
      std::frexp(a,
                 &e);  // a = m 2^e with m in [0.5, 1): 11 significant bits, subnormals below 2^-14
      return std::ldexp(1.0, std::max(e - 11, -24));
    }
    case DType::bf16: {
      // f32's exponent range with 8 significant bits: subnormals below 2^-126 are 2^-133 apart.
      double a = std::fabs(round_to_bfloat16(v));
      if (a == 0) return 0x1p-133;
      int e = 0;
      std::frexp(a, &e);
      return std::ldexp(1.0, std::max(e - 8, -133));
    }
    case DType::f32: {
      float a = std::fabs(static_cast<float>(v));
      return static_cast<double>(std::nextafter(a, HUGE_VALF)) - static_cast<double>(a);
    }
    default: {
      double a = std::fabs(v);
      return std::nextafter(a, HUGE_VAL) - a;
    }
  }
}

}  // namespace retort
