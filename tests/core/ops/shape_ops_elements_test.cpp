// gather_elements and scatter_elements: one index per element along one axis.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/core/ops/op_test_util.h"

namespace retort {
namespace {

using namespace testing;
using ::testing::HasSubstr;

Attrs on_axis(int64_t axis, const std::string& reduction = "") {
  Attrs a{{"axis", axis}};
  if (!reduction.empty()) a["reduction"] = reduction;
  return a;
}

TEST(ShapeOpsGatherElements, EachIndexPicksOneElement) {
  // ONNX's example: data [[1, 2], [3, 4]], axis 1, indices [[0, 0], [1, 0]].
  Tensor data = Tensor::from_doubles(DType::f32, {2, 2}, {1, 2, 3, 4});
  EXPECT_EQ(run_op("gather_elements", {data, ints(DType::i64, {2, 2}, {0, 0, 1, 0})}, on_axis(1)),
            Tensor::from_doubles(DType::f32, {2, 2}, {1, 1, 4, 3}));
  // Along axis 0, negative indices, and indices shorter than data on the other axis.
  Tensor x = iota(DType::i32, {3, 3});  // [[0,1,2],[3,4,5],[6,7,8]]
  EXPECT_EQ(run_op("gather_elements", {x, ints(DType::i32, {2, 2}, {-1, 0, 1, -3})}),
            ints(DType::i32, {2, 2}, {6, 1, 3, 1}));
  // The indexed axis may be longer than data's.
  EXPECT_EQ(run_op("gather_elements", {x, ints(DType::i64, {1, 4}, {2, 2, 0, 1})}, on_axis(-1)),
            ints(DType::i32, {1, 4}, {2, 2, 0, 1}));
}

TEST(ShapeOpsGatherElements, Errors) {
  EXPECT_THAT(
      error_of([] {
        run_op("gather_elements", {iota(DType::f32, {2, 2}), ints(DType::i64, {1, 1}, {2})});
      }),
      HasSubstr("index 2 (element 0 of 'indices') is out of range [-2, 1]"));
  EXPECT_THAT(error_of([] {
                infer_op("gather_elements", {{DType::f32, {2, 2}}, {DType::i64, {2}}});
              }),
              HasSubstr("must have the rank of data"));
  EXPECT_THAT(error_of([] {
                infer_op("gather_elements", {{DType::f32, {2, 2}}, {DType::i64, {2, 3}}});
              }),
              HasSubstr("longer than data f32[2,2] on axis 1"));
}

TEST(ShapeOpsScatterElements, WritesAddsAndMultiplies) {
  // ONNX's example: data 3x3 zeros, axis 0, indices [[1, 0, 2], [0, 2, 1]].
  Tensor zeros = Tensor::from_doubles(DType::f32, {3, 3}, std::vector<double>(9, 0.0));
  Tensor idx = ints(DType::i64, {2, 3}, {1, 0, 2, 0, 2, 1});
  Tensor upd = Tensor::from_doubles(DType::f32, {2, 3}, {1.0, 1.1, 1.2, 2.0, 2.1, 2.2});
  EXPECT_EQ(run_op("scatter_elements", {zeros, idx, upd}),
            Tensor::from_doubles(DType::f32, {3, 3}, {2.0, 1.1, 0, 1.0, 0, 2.2, 0, 2.1, 1.2}));
  // Repeated indices add or multiply in turn; negative indices count from the end.
  Tensor row = Tensor::from_doubles(DType::f32, {1, 5}, {1, 2, 3, 4, 5});
  Tensor rep = ints(DType::i32, {1, 2}, {1, -4});
  Tensor two = Tensor::from_doubles(DType::f32, {1, 2}, {1.1, 2.1});
  EXPECT_EQ(run_op("scatter_elements", {row, rep, two}, on_axis(1, "add")),
            Tensor::from_doubles(DType::f32, {1, 5}, {1, 5.2, 3, 4, 5}));
  EXPECT_EQ(run_op("scatter_elements", {row, rep, two}, on_axis(1, "mul")),
            Tensor::from_doubles(DType::f32, {1, 5}, {1, 2 * 1.1 * 2.1, 3, 4, 5}));
  // Integers wrap.
  Tensor big = ints(DType::i32, {2}, {INT32_MAX, 5});
  EXPECT_EQ(
      run_op("scatter_elements", {big, ints(DType::i64, {1}, {0}), ints(DType::i32, {1}, {1})},
             on_axis(0, "add")),
      ints(DType::i32, {2}, {INT32_MIN, 5}));
}

TEST(ShapeOpsScatterElements, Errors) {
  EXPECT_THAT(
      error_of([] {
        infer_op("scatter_elements", {{DType::f32, {3}}, {DType::i64, {2}}, {DType::f32, {3}}});
      }),
      HasSubstr("input 'updates' f32[3] must have data's dtype and indices' shape [2]"));
  EXPECT_THAT(error_of([] {
                infer_op("scatter_elements",
                         {{DType::f32, {3}}, {DType::i64, {2}}, {DType::f32, {2}}},
                         {{"reduction", std::string("max")}});
              }),
              HasSubstr("reduction \"max\" is not one of"));
  EXPECT_THAT(error_of([] {
                run_op("scatter_elements",
                       {iota(DType::f32, {3}), ints(DType::i64, {1}, {-4}), iota(DType::f32, {1})});
              }),
              HasSubstr("out of range [-3, 2]"));
}

}  // namespace
}  // namespace retort
