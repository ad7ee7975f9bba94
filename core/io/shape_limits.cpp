#include "core/io/shape_limits.h"

#include "core/base/error.h"

namespace retort {

void check_declared_shape(const Shape& shape, int64_t max_elements) {
  if (shape.size() > kMaxRank) fail("rank {} is above the maximum rank {}", shape.size(), kMaxRank);
  int64_t count = 1;
  for (int64_t d : shape) {
    if (d < 0) fail("dimension {} is negative", d);
    // Divide instead of multiplying so that the check itself cannot overflow.
    if (d > 0 && count > max_elements / d)
      fail("shape {} has more than {} elements", shape_str(shape), max_elements);
    count *= d;
  }
}

}  // namespace retort
