#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "tests/core/ops/op_test_util.h"

namespace retort {
namespace {

using namespace testing;
using ::testing::HasSubstr;

std::vector<Tensor> topk(const Tensor& x, int64_t k, Attrs attrs = {}) {
  attrs["k"] = k;
  return run_op_outputs("topk", {x}, attrs, 2);
}

TEST(OpsTopk, LargestAndSmallestSortedWithTheirIndices) {
  // ONNX's example: the 3 largest of each row of [[0..3], [4..7], [8..11]].
  std::vector<Tensor> y = topk(iota(DType::f32, {3, 4}), 3);
  EXPECT_EQ(y[0], f32({3, 3}, {3, 2, 1, 7, 6, 5, 11, 10, 9}));
  EXPECT_EQ(y[1], ints(DType::i64, {3, 3}, {3, 2, 1, 3, 2, 1, 3, 2, 1}));
  y = topk(f32({2, 3}, {5, -1, 2, 0, 7, -3}), 1, {{"axis", int64_t{0}}, {"largest", int64_t{0}}});
  EXPECT_EQ(y[0], f32({1, 3}, {0, -1, -3}));
  EXPECT_EQ(y[1], ints(DType::i64, {1, 3}, {1, 0, 1}));
}

TEST(OpsTopk, TiesGoToTheLowerIndex) {
  Tensor x = ints(DType::i32, {6}, {2, 5, 2, 5, 1, 2});
  std::vector<Tensor> y = topk(x, 4);
  EXPECT_EQ(y[0], ints(DType::i32, {4}, {5, 5, 2, 2}));
  EXPECT_EQ(y[1], ints(DType::i64, {4}, {1, 3, 0, 2}));
  y = topk(x, 3, {{"largest", int64_t{0}}});
  EXPECT_EQ(y[1], ints(DType::i64, {3}, {4, 0, 2}));
  // -0 and +0 tie: each keeps its own sign, in order of position.
  y = topk(f32({3}, {-0.0, 0.0, -1}), 2);
  EXPECT_TRUE(std::signbit(y[0].get(0)));
  EXPECT_FALSE(std::signbit(y[0].get(1)));
  // i64 values beyond 2^53 compare exactly.
  Tensor big = ints(DType::i64, {2}, {kMax64 - 1, kMax64});
  EXPECT_EQ(topk(big, 1)[0], ints(DType::i64, {1}, {kMax64}));
  // NaN (outside the domain) comes first, as argmax counts it.
  EXPECT_EQ(topk(f32({3}, {1, kNaN, 2}), 1)[1], ints(DType::i64, {1}, {1}));
  EXPECT_EQ(topk(f32({3}, {1, kNaN, 2}), 1, {{"largest", int64_t{0}}})[1],
            ints(DType::i64, {1}, {1}));
}

TEST(OpsTopk, Errors) {
  EXPECT_THAT(error_of([] {
                topk(iota(DType::f32, {2, 3}), 4);
              }),
              HasSubstr("k 4 is outside [1, 3]"));
  EXPECT_THAT(error_of([] { topk(iota(DType::f32, {3}), 0); }), HasSubstr("outside [1, 3]"));
  EXPECT_THAT(error_of([] {
                topk(iota(DType::f32, {3}), 1, {{"sorted", int64_t{0}}});
              }),
              HasSubstr("sorted=1 only"));
  EXPECT_THAT(error_of([] {
                topk(Tensor(TensorType{DType::boolean, {2}}), 1);
              }),
              HasSubstr("topk input 'x'"));
}

}  // namespace
}  // namespace retort
