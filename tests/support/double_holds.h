// Whether a double holds an int64 exactly, for tests of values past 2^53. Without UB: the double
// nearest to INT64_MAX is 2^63, which no int64 holds, so it is not converted back.
#pragma once

#include <cstdint>

namespace retort {

inline bool double_holds(int64_t v) {
  double d = static_cast<double>(v);
  return d < 0x1p63 && static_cast<int64_t>(d) == v;
}

}  // namespace retort
