// slice, pad and gather: the shape ops whose output positions come from index arithmetic.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/core/ops/op_test_util.h"

namespace retort {
namespace {

using namespace testing;
using ::testing::AllOf;
using ::testing::HasSubstr;
using Ints = std::vector<int64_t>;

Tensor slice_1d(const Tensor& x, int64_t start, int64_t end, int64_t step) {
  return run_op("slice", {x},
                {{"starts", Ints{start}}, {"ends", Ints{end}}, {"steps", Ints{step}}});
}

// --- slice -------------------------------------------------------------------------------------

TEST(ShapeOpsSlice, NegativeStepsWalkBackwards) {
  Tensor x = iota(DType::i64, {10});
  EXPECT_EQ(slice_1d(x, 8, 2, -2), ints(DType::i64, {3}, {8, 6, 4}));
  EXPECT_EQ(slice_1d(x, -1, INT64_MIN, -1), ints(DType::i64, {10}, {9, 8, 7, 6, 5, 4, 3, 2, 1, 0}));
  // start clamps to 9 and end to -1 (before the first element) for a negative step.
  EXPECT_EQ(slice_1d(x, 100, -100, -3), ints(DType::i64, {4}, {9, 6, 3, 0}));
}

TEST(ShapeOpsSlice, ClampsStartsAndEnds) {
  Tensor x = iota(DType::i64, {10});
  EXPECT_EQ(slice_1d(x, 2, INT64_MAX, 1), ints(DType::i64, {8}, {2, 3, 4, 5, 6, 7, 8, 9}));
  EXPECT_EQ(slice_1d(x, 100, 200, 1).shape(), (Shape{0}));
  EXPECT_EQ(slice_1d(x, -100, 3, 1), ints(DType::i64, {3}, {0, 1, 2}));
  EXPECT_EQ(slice_1d(x, 5, 2, 1).shape(), (Shape{0}));
  EXPECT_EQ(slice_1d(x, 1, 10, INT64_MAX), ints(DType::i64, {1}, {1}));
  EXPECT_EQ(slice_1d(x, 8, 0, INT64_MIN), ints(DType::i64, {1}, {8}));
}

TEST(ShapeOpsSlice, NegativeAxesAndDefaults) {
  Tensor x = iota(DType::f32, {3, 4});
  Tensor y = run_op("slice", {x}, {{"starts", Ints{1}}, {"ends", Ints{-1}}, {"axes", Ints{-1}}});
  EXPECT_EQ(y, Tensor::from_doubles(DType::f32, {3, 2}, {1, 2, 5, 6, 9, 10}));
  // Without axes, starts/ends apply to the leading dimensions.
  Tensor z =
      run_op("slice", {x}, {{"starts", Ints{1, 0}}, {"ends", Ints{3, 4}}, {"steps", Ints{1, 3}}});
  EXPECT_EQ(z, Tensor::from_doubles(DType::f32, {2, 2}, {4, 7, 8, 11}));
  Tensor w = run_op("slice", {x},
                    {{"starts", Ints{-1, -1}},
                     {"ends", Ints{INT64_MIN, INT64_MIN}},
                     {"axes", Ints{1, 0}},
                     {"steps", Ints{-2, -1}}});
  EXPECT_EQ(w, Tensor::from_doubles(DType::f32, {3, 2}, {11, 9, 7, 5, 3, 1}));
}

TEST(ShapeOpsSlice, Errors) {
  TensorType t{DType::f32, {3, 4}};
  EXPECT_THAT(
      error_of([&] {
        infer_op("slice", {t}, {{"starts", Ints{0}}, {"ends", Ints{1}}, {"steps", Ints{0}}});
      }),
      HasSubstr("'steps' entry 0 (axis 0) is 0"));
  EXPECT_THAT(error_of([&] {
                infer_op("slice", {t},
                         {{"starts", Ints{0, 0}}, {"ends", Ints{1, 1}}, {"axes", Ints{1, -1}}});
              }),
              HasSubstr("axis 1 is given twice"));
  EXPECT_THAT(error_of([&] {
                infer_op("slice", {t}, {{"starts", Ints{0}}, {"ends", Ints{1, 2}}});
              }),
              HasSubstr("'ends' has 2 entries but 'starts' has 1"));
  EXPECT_THAT(error_of([&] {
                infer_op("slice", {t}, {{"starts", Ints{0}}, {"ends", Ints{1}}, {"axes", Ints{2}}});
              }),
              HasSubstr("axis 2 is out of range for rank 2"));
}

// --- pad ---------------------------------------------------------------------------------------

TEST(ShapeOpsPad, ConstantBeforeAndAfter) {
  Tensor y = run_op("pad", {iota(DType::i32, {2, 2})},
                    {{"pads", Ints{1, 0, 0, 1}}, {"constant_value", -7.0}});
  EXPECT_EQ(y, ints(DType::i32, {3, 3}, {-7, -7, -7, 0, 1, -7, 2, 3, -7}));
  EXPECT_EQ(run_op("pad", {iota(DType::f32, {1})}, {{"pads", Ints{1, 1}}}),
            Tensor::from_doubles(DType::f32, {3}, {0, 0, 0}));
}

TEST(ShapeOpsPad, NegativePadsCrop) {
  Tensor x = ints(DType::i64, {4}, {1, 2, 3, 4});
  EXPECT_EQ(run_op("pad", {x}, {{"pads", Ints{-1, 2}}}), ints(DType::i64, {5}, {2, 3, 4, 0, 0}));
  EXPECT_EQ(run_op("pad", {x}, {{"pads", Ints{-5, 3}}, {"constant_value", 9.0}}),
            ints(DType::i64, {2}, {9, 9}));
  EXPECT_EQ(run_op("pad", {x}, {{"pads", Ints{INT64_MIN, INT64_MAX}}, {"constant_value", 9.0}}),
            ints(DType::i64, {3}, {9, 9, 9}));
  EXPECT_EQ(run_op("pad", {x}, {{"pads", Ints{-2, -1}}, {"mode", std::string("edge")}}),
            ints(DType::i64, {1}, {3}));
  EXPECT_EQ(run_op("pad", {iota(DType::i64, {5})},
                   {{"pads", Ints{-1, 2}}, {"mode", std::string("reflect")}}),
            ints(DType::i64, {6}, {1, 2, 3, 4, 3, 2}));
}

TEST(ShapeOpsPad, ReflectMirrorsWithoutRepeatingTheBorder) {
  Tensor x = ints(DType::i64, {4}, {1, 2, 3, 4});
  EXPECT_EQ(run_op("pad", {x}, {{"pads", Ints{2, 2}}, {"mode", std::string("reflect")}}),
            ints(DType::i64, {8}, {3, 2, 1, 2, 3, 4, 3, 2}));
  // The ONNX operator example: reflect on the second axis of a 3x2 matrix.
  Tensor m = Tensor::from_doubles(DType::f32, {3, 2}, {1.0, 1.2, 2.3, 3.4, 4.5, 5.7});
  EXPECT_EQ(run_op("pad", {m}, {{"pads", Ints{0, 2, 0, 0}}, {"mode", std::string("reflect")}}),
            Tensor::from_doubles(DType::f32, {3, 4},
                                 {1.0, 1.2, 1.0, 1.2, 2.3, 3.4, 2.3, 3.4, 4.5, 5.7, 4.5, 5.7}));
  // Pads beyond the axis size keep mirroring back and forth; a single element repeats.
  EXPECT_EQ(run_op("pad", {ints(DType::i64, {3}, {1, 2, 3})},
                   {{"pads", Ints{5, 4}}, {"mode", std::string("reflect")}}),
            ints(DType::i64, {12}, {2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3}));
  EXPECT_EQ(run_op("pad", {ints(DType::i64, {1}, {7})},
                   {{"pads", Ints{1, 2}}, {"mode", std::string("reflect")}}),
            ints(DType::i64, {4}, {7, 7, 7, 7}));
  EXPECT_THAT(error_of([] {
                infer_op("pad", {{DType::f32, {2}}},
                         {{"pads", Ints{-2, 1}}, {"mode", std::string("reflect")}});
              }),
              HasSubstr("reflect padding of axis 0 of input [2] has no element to copy"));
}

TEST(ShapeOpsPad, EdgeRepeatsTheBorder) {
  Tensor x = ints(DType::u8, {3}, {1, 2, 3});
  EXPECT_EQ(run_op("pad", {x}, {{"pads", Ints{2, 1}}, {"mode", std::string("edge")}}),
            ints(DType::u8, {6}, {1, 1, 1, 2, 3, 3}));
  Tensor m = iota(DType::f64, {2, 2});
  EXPECT_EQ(run_op("pad", {m}, {{"pads", Ints{1, 0, 0, 1}}, {"mode", std::string("edge")}}),
            Tensor::from_doubles(DType::f64, {3, 3}, {0, 1, 1, 0, 1, 1, 2, 3, 3}));
}

TEST(ShapeOpsPad, Errors) {
  TensorType t{DType::f32, {2, 3}};
  EXPECT_THAT(error_of([&] {
                infer_op("pad", {t}, {{"pads", Ints{1, 1}}});
              }),
              HasSubstr("needs 2 * rank = 4"));
  EXPECT_THAT(error_of([&] {
                infer_op("pad", {t}, {{"pads", Ints{0, -2, 0, -2}}});
              }),
              HasSubstr("makes axis 1 of input [2,3] negative"));
  EXPECT_THAT(error_of([&] {
                infer_op("pad", {t}, {{"pads", Ints{0, 0, 0, 0}}, {"mode", std::string("wrap")}});
              }),
              HasSubstr("got \"wrap\""));
}

// --- gather ------------------------------------------------------------------------------------

TEST(ShapeOpsGather, IndexTensorReplacesTheAxis) {
  Tensor data = Tensor::from_doubles(DType::f32, {3, 2}, {1, 2, 3, 4, 5, 6});
  Tensor y = run_op("gather", {data, ints(DType::i64, {2, 2}, {0, 1, 1, 2})});
  EXPECT_EQ(y, Tensor::from_doubles(DType::f32, {2, 2, 2}, {1, 2, 3, 4, 3, 4, 5, 6}));
  // A scalar index removes the axis.
  EXPECT_EQ(run_op("gather", {data, ints(DType::i64, {}, {1})}),
            Tensor::from_doubles(DType::f32, {2}, {3, 4}));
}

TEST(ShapeOpsGather, NegativeIndicesAndAxis) {
  EXPECT_EQ(run_op("gather", {iota(DType::i64, {10}), ints(DType::i64, {4}, {0, -9, -10, -1})}),
            ints(DType::i64, {4}, {0, 1, 0, 9}));
  Tensor y = run_op("gather", {iota(DType::i64, {2, 3}), ints(DType::i32, {2}, {2, -3})},
                    {{"axis", int64_t{-1}}});
  EXPECT_EQ(y, ints(DType::i64, {2, 2}, {2, 0, 5, 3}));
}

TEST(ShapeOpsGather, Errors) {
  EXPECT_THAT(error_of([] {
                run_op("gather", {iota(DType::f32, {3}), ints(DType::i64, {1}, {3})});
              }),
              AllOf(HasSubstr("index 3"), HasSubstr("out of range [-3, 2]")));
  EXPECT_THAT(error_of([] {
                infer_op("gather", {{DType::f32, {3}}, {DType::f32, {1}}});
              }),
              HasSubstr("input 'indices' must be one of i32, i64"));
  EXPECT_THAT(error_of([] {
                infer_op("gather", {{DType::f32, {3}}, {DType::i64, {1}}}, {{"axis", int64_t{1}}});
              }),
              HasSubstr("'axis' 1 is out of range"));
}

}  // namespace
}  // namespace retort
