#include "core/base/rng.h"

#include <gtest/gtest.h>

namespace retort {
namespace {

TEST(Rng, SameSeedSameStream) {
  Rng a(42), b(42), c(43);
  for (int i = 0; i < 100; ++i) {
    uint64_t x = a.next_u64();
    EXPECT_EQ(x, b.next_u64());
    EXPECT_NE(x, c.next_u64());
  }
}

TEST(Rng, UniformIntStaysInRangeAndCoversIt) {
  Rng r(1);
  std::vector<int> seen(7, 0);
  for (int i = 0; i < 1000; ++i) {
    int64_t v = r.uniform_int(-3, 3);
    ASSERT_GE(v, -3);
    ASSERT_LE(v, 3);
    seen[v + 3]++;
  }
  for (int n : seen) EXPECT_GT(n, 0);
}

}  // namespace
}  // namespace retort
