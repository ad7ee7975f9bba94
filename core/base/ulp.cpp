#include "core/base/ulp.h"

#include <bit>
#include <cmath>
#include <cstdint>

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

}  // namespace retort
