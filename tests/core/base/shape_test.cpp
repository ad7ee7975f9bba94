#include "core/base/shape.h"

#include <gtest/gtest.h>

#include "core/base/error.h"

namespace retort {
namespace {

TEST(Shape, BroadcastsLikeNumpy) {
  EXPECT_EQ(broadcast_shapes({6, 5, 4, 3, 2}, {1, 3, 2}), (Shape{6, 5, 4, 3, 2}));
  EXPECT_EQ(broadcast_shapes({}, {2, 3}), (Shape{2, 3}));
  EXPECT_EQ(broadcast_shapes({4, 1}, {1, 5}), (Shape{4, 5}));
  EXPECT_THROW(broadcast_shapes({2, 3}, {4, 3}), Error);
}

TEST(Shape, BroadcastStridesAreZeroOnBroadcastAxes) {
  EXPECT_EQ(broadcast_strides({3, 1}, {2, 3, 4}), (std::vector<int64_t>{0, 1, 0}));
}

TEST(Shape, NormalizesNegativeAxes) {
  EXPECT_EQ(normalize_axis(-1, 3), 2);
  EXPECT_THROW(normalize_axis(3, 3), Error);
}

}  // namespace
}  // namespace retort
