#include "core/ops/scalar_math.h"

#include <cmath>

namespace retort {

int64_t wrapping_div(int64_t a, int64_t b) {
  if (b == 0) return 0;
  if (b == -1) return wrapping_neg(a);
  return a / b;
}

int64_t wrapping_rem(int64_t a, int64_t b) {
  if (b == 0 || b == -1) return 0;
  return a % b;
}

int64_t floored_mod(int64_t a, int64_t b) {
  int64_t r = wrapping_rem(a, b);
  // |r| < |b|, so adding b to a remainder of the other sign cannot overflow.
  if (r != 0 && (r < 0) != (b < 0)) r += b;
  return r;
}

int64_t wrapping_pow(int64_t a, int64_t e) {
  if (e < 0) {
    if (a == 1) return 1;
    if (a == -1) return (e & 1) ? -1 : 1;
    return 0;
  }
  int64_t result = 1;
  int64_t base = a;
  for (uint64_t k = static_cast<uint64_t>(e); k != 0; k >>= 1) {
    if (k & 1) result = wrapping_mul(result, base);
    base = wrapping_mul(base, base);
  }
  return result;
}

double round_half_even(double x) {
  double r = std::round(x);
  // std::round takes ties away from zero; a tie is moved to the even neighbour.
  if (std::fabs(x - std::trunc(x)) == 0.5) r = 2.0 * std::round(x / 2.0);
  return r;
}

}  // namespace retort
