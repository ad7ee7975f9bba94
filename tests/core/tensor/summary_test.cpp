#include "core/tensor/summary.h"

#include <cmath>

#include <gtest/gtest.h>

namespace retort {
namespace {

TEST(Summary, FloatStatsCountNanAndInfApart) {
  Tensor t = Tensor::from_doubles(DType::f32, {2, 3}, {1, -2, NAN, INFINITY, 0.5, 3});
  EXPECT_EQ(summarize_tensor(t),
            "f32[2,3] min=-2 max=3 mean=0.625 nan=1 inf=1 [1, -2, nan, inf, 0.5, 3]");
}

TEST(Summary, ElidesValuesPastTheLimit) {
  Tensor t = Tensor::from_ints(DType::i32, {5}, {4, -1, 7, 0, 2});
  EXPECT_EQ(summarize_tensor(t, 3), "i32[5] min=-1 max=7 mean=2.4 [4, -1, 7, ...]");
}

TEST(Summary, BoolsAndEmptyAndAllNan) {
  EXPECT_EQ(summarize_tensor(Tensor::from_ints(DType::boolean, {2}, {1, 0})),
            "bool[2] min=0 max=1 mean=0.5 [true, false]");
  EXPECT_EQ(summarize_tensor(Tensor(DType::f64, {0, 3})), "f64[0,3] (empty)");
  EXPECT_EQ(summarize_tensor(Tensor::from_doubles(DType::f16, {}, {NAN})),
            "f16[] nan=1 inf=0 [nan]");
}

}  // namespace
}  // namespace retort
