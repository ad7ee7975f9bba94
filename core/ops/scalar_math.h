// Scalar arithmetic with the reference's exact semantics: wrapping integer operations, NaN-
// keeping min/max, ties-to-even rounding, and accumulation in the widened type.
#pragma once

#include <cmath>
#include <cstdint>

namespace retort {

// Wrapping integer arithmetic without signed-overflow UB.
inline int64_t wrapping_add(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
inline int64_t wrapping_sub(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
inline int64_t wrapping_mul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}
inline int64_t wrapping_neg(int64_t a) {
  return wrapping_sub(0, a);
}
// Truncating division and remainder, total: x/0 = 0, x%0 = 0, INT64_MIN/-1 wraps to INT64_MIN.
int64_t wrapping_div(int64_t a, int64_t b);
int64_t wrapping_rem(int64_t a, int64_t b);  // sign of the dividend (C, ONNX fmod=1)
int64_t floored_mod(int64_t a, int64_t b);   // sign of the divisor (Python, ONNX fmod=0)
// a^e by repeated squaring, wrapping; for e < 0 it is trunc(1 / a^-e) with 0^e = 0.
int64_t wrapping_pow(int64_t a, int64_t e);

// Float helpers that keep NaN: std::min/std::max drop a NaN depending on argument order.
inline double nan_max(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? a + b : (a < b ? b : a);
}
inline double nan_min(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? a + b : (b < a ? b : a);
}
// Rounds to the nearest integer, ties to even, without depending on the FP rounding mode.
double round_half_even(double x);

// Accumulation in the widened type: plain IEEE arithmetic in double, two's-complement wrap in
// int64. Kernels templated on the widened type use these so both paths share one loop.
inline double acc_add(double a, double b) {
  return a + b;
}
inline int64_t acc_add(int64_t a, int64_t b) {
  return wrapping_add(a, b);
}
inline double acc_mul(double a, double b) {
  return a * b;
}
inline int64_t acc_mul(int64_t a, int64_t b) {
  return wrapping_mul(a, b);
}

}  // namespace retort
