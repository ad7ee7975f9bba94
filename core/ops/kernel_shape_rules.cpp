// Overflow-checked shape arithmetic and axis normalisation (declared in kernel_util.h).
#include <vector>

#include "core/ops/kernel_util.h"

namespace retort {

int64_t checked_add(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) fail("dimension arithmetic {} + {} overflows int64", a, b);
  return r;
}

int64_t checked_mul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) fail("dimension arithmetic {} * {} overflows int64", a, b);
  return r;
}

int64_t checked_numel(const Shape& s) {
  int64_t n = 1;
  for (int64_t d : s) {
    if (d < 0) fail("negative dimension in shape {}", shape_str(s));
    if (__builtin_mul_overflow(n, d, &n))
      fail("shape {} has more elements than fit in int64", shape_str(s));
  }
  return n;
}

std::vector<int64_t> normalize_axes(const std::vector<int64_t>& axes, int64_t rank,
                                    const std::string& what) {
  std::vector<int64_t> out;
  std::vector<bool> seen(static_cast<size_t>(rank), false);
  for (int64_t a : axes) {
    if (a < -rank || a >= rank) fail("{}: axis {} is out of range for rank {}", what, a, rank);
    int64_t n = a < 0 ? a + rank : a;
    if (seen[n]) fail("{}: axis {} is given twice", what, n);
    seen[n] = true;
    out.push_back(n);
  }
  return out;
}

}  // namespace retort
