#include "core/base/pod_vec.h"

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

namespace retort {
namespace {

struct Pair {
  uint32_t a;
  uint16_t b;
};

std::vector<uint32_t> contents(const PodVec<uint32_t>& v) {
  return {v.begin(), v.end()};
}

// Appends of every length (the in-place copies of one to three values, and memcpy past them)
// across growth keep every value in order.
TEST(PodVec, AppendsOfEveryLengthKeepTheirValuesAcrossGrowth) {
  PodVec<uint32_t> v;
  std::vector<uint32_t> want;
  uint32_t next = 0;
  for (size_t round = 0; round < 40; ++round)
    for (size_t n = 0; n <= 6; ++n) {
      std::vector<uint32_t> chunk;
      for (size_t i = 0; i < n; ++i) chunk.push_back(next++);
      v.append(chunk);
      want.insert(want.end(), chunk.begin(), chunk.end());
      v.push_back(next);
      want.push_back(next++);
    }
  EXPECT_EQ(contents(v), want);
  EXPECT_EQ(v.size(), want.size());
  EXPECT_EQ(v[17], want[17]);
}

TEST(PodVec, ClearKeepsStorageAndMovesHandItOver) {
  PodVec<Pair> v;
  v.reserve(100);
  v.push_back({1, 2});
  const Pair* storage = v.data();
  v.clear();
  EXPECT_TRUE(v.empty());
  for (uint32_t i = 0; i < 100; ++i) v.push_back({i, static_cast<uint16_t>(i * 2)});
  EXPECT_EQ(v.data(), storage);  // reserved room: no regrowth
  PodVec<Pair> moved(std::move(v));
  EXPECT_EQ(moved.data(), storage);
  EXPECT_TRUE(v.empty());  // NOLINT(bugprone-use-after-move): a moved-from PodVec is empty
  EXPECT_EQ(moved[99].b, 198);
  PodVec<Pair> other;
  other.push_back({7, 7});
  other = std::move(moved);
  EXPECT_EQ(other.size(), 100u);
  EXPECT_EQ(other[0].a, 0u);
}

}  // namespace
}  // namespace retort
