#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/ops/registry.h"
#include "tests/core/ops/op_test_util.h"

namespace retort {
namespace {

using namespace testing;
using ::testing::AllOf;
using ::testing::HasSubstr;
using Ints = std::vector<int64_t>;

// --- reshape, flatten, squeeze, unsqueeze -----------------------------------------------------

TEST(ShapeOpsReshape, InfersMinusOneAndCopiesZero) {
  Tensor y = run_op("reshape", {iota(DType::f32, {2, 3, 4})}, {{"shape", Ints{0, -1}}});
  EXPECT_EQ(y, iota(DType::f32, {2, 12}));
  EXPECT_EQ(infer_op("reshape", {{DType::f32, {2, 3, 4}}}, {{"shape", Ints{-1, 0, 2}}})[0].shape,
            (Shape{4, 3, 2}));
}

TEST(ShapeOpsReshape, AllowZeroKeepsZeroAsSize) {
  EXPECT_EQ(infer_op("reshape", {{DType::f32, {0, 3}}},
                     {{"shape", Ints{3, 0}}, {"allowzero", int64_t{1}}})[0]
                .shape,
            (Shape{3, 0}));
  EXPECT_THAT(error_of([] {
                infer_op("reshape", {{DType::f32, {0, 3}}},
                         {{"shape", Ints{0, -1}}, {"allowzero", int64_t{1}}});
              }),
              HasSubstr("both 0 and -1"));
}

TEST(ShapeOpsReshape, KeepsI64BitsExactly) {
  Tensor x = ints(DType::i64, {2, 2}, {(int64_t{1} << 62) + 1, -3, INT64_MAX, INT64_MIN});
  EXPECT_EQ(run_op("reshape", {x}, {{"shape", Ints{4}}}),
            ints(DType::i64, {4}, {(int64_t{1} << 62) + 1, -3, INT64_MAX, INT64_MIN}));
}

TEST(ShapeOpsReshape, ElementCountMismatchNamesBothShapes) {
  std::string msg = error_of([] {
    infer_op("reshape", {{DType::f32, {2, 3}}}, {{"shape", Ints{4, 2}}});
  });
  EXPECT_THAT(msg, AllOf(HasSubstr("[2,3]"), HasSubstr("6 elements"), HasSubstr("[4,2]"),
                         HasSubstr("8 elements")));
  EXPECT_THAT(error_of([] {
                infer_op("reshape", {{DType::f32, {2, 3}}}, {{"shape", Ints{4, -1}}});
              }),
              AllOf(HasSubstr("[2,3]"), HasSubstr("[4,-1]")));
  EXPECT_THAT(error_of([] {
                infer_op("reshape", {{DType::f32, {6}}}, {{"shape", Ints{-1, -1}}});
              }),
              HasSubstr("more than one -1"));
  EXPECT_THAT(error_of([] {
                infer_op("reshape", {{DType::f32, {6}}}, {{"shape", Ints{6, 0}}});
              }),
              HasSubstr("entry 1 is 0"));
}

TEST(ShapeOpsFlatten, SplitsAtAxis) {
  EXPECT_EQ(run_op("flatten", {iota(DType::i32, {2, 3, 4})}, {{"axis", int64_t{-1}}}),
            iota(DType::i32, {6, 4}));
  EXPECT_EQ(infer_op("flatten", {{DType::f32, {2, 3, 4}}}, {{"axis", int64_t{0}}})[0].shape,
            (Shape{1, 24}));
  EXPECT_EQ(infer_op("flatten", {{DType::f32, {2, 3, 4}}}, {{"axis", int64_t{3}}})[0].shape,
            (Shape{24, 1}));
  EXPECT_EQ(infer_op("flatten", {{DType::f32, {2, 3, 4}}})[0].shape, (Shape{2, 12}));
  EXPECT_THAT(error_of([] {
                infer_op("flatten", {{DType::f32, {2, 3}}}, {{"axis", int64_t{3}}});
              }),
              HasSubstr("out of range [-2, 2]"));
}

TEST(ShapeOpsSqueeze, RemovesOnesGivenOrAll) {
  EXPECT_EQ(run_op("squeeze", {iota(DType::f16, {1, 3, 1})}), iota(DType::f16, {3}));
  EXPECT_EQ(infer_op("squeeze", {{DType::f32, {1, 3, 1}}}, {{"axes", Ints{-1}}})[0].shape,
            (Shape{1, 3}));
  EXPECT_THAT(error_of([] {
                infer_op("squeeze", {{DType::f32, {1, 3, 1}}}, {{"axes", Ints{1}}});
              }),
              AllOf(HasSubstr("axis 1"), HasSubstr("[1,3,1]"), HasSubstr("size is 3")));
}

TEST(ShapeOpsUnsqueeze, AxesIndexTheOutput) {
  EXPECT_EQ(infer_op("unsqueeze", {{DType::f32, {3, 4}}}, {{"axes", Ints{0, -1}}})[0].shape,
            (Shape{1, 3, 4, 1}));
  EXPECT_EQ(run_op("unsqueeze", {iota(DType::u8, {3, 4})}, {{"axes", Ints{2, 0}}}),
            iota(DType::u8, {1, 3, 1, 4}));
  EXPECT_THAT(error_of([] {
                infer_op("unsqueeze", {{DType::f32, {3}}}, {{"axes", Ints{2, -1}}});
              }),
              HasSubstr("axis 2 is given twice"));
}

// --- transpose ---------------------------------------------------------------------------------

TEST(ShapeOpsTranspose, DefaultReversesDimensions) {
  EXPECT_EQ(run_op("transpose", {iota(DType::f32, {2, 3})}),
            Tensor::from_doubles(DType::f32, {3, 2}, {0, 3, 1, 4, 2, 5}));
}

TEST(ShapeOpsTranspose, SwapsTwoDimensions) {
  // [2,2,3] with its last two dimensions swapped: out[i][k][j] = in[i][j][k].
  Tensor y = run_op("transpose", {iota(DType::i64, {2, 2, 3})}, {{"perm", Ints{0, 2, 1}}});
  EXPECT_EQ(y, ints(DType::i64, {2, 3, 2}, {0, 3, 1, 4, 2, 5, 6, 9, 7, 10, 8, 11}));
  // Applying the same swap twice gives the input back.
  EXPECT_EQ(run_op("transpose", {y}, {{"perm", Ints{0, 2, 1}}}), iota(DType::i64, {2, 2, 3}));
}

TEST(ShapeOpsTranspose, MovesBoolAndHalfBytes) {
  Tensor b = Tensor::from_ints(DType::boolean, {2, 2}, {1, 0, 0, 1});
  EXPECT_EQ(run_op("transpose", {b}), b);
  Tensor h = Tensor::from_doubles(DType::f16, {1, 3}, {0.5, -2, 65504});
  EXPECT_EQ(run_op("transpose", {h}), Tensor::from_doubles(DType::f16, {3, 1}, {0.5, -2, 65504}));
}

TEST(ShapeOpsTranspose, RejectsWhatIsNotAPermutation) {
  EXPECT_THAT(error_of([] {
                infer_op("transpose", {{DType::f32, {2, 3, 4}}}, {{"perm", Ints{0, 0, 2}}});
              }),
              AllOf(HasSubstr("[0,0,2]"), HasSubstr("not a permutation of 0..2"),
                    HasSubstr("0 appears twice")));
  EXPECT_THAT(error_of([] {
                infer_op("transpose", {{DType::f32, {2, 3}}}, {{"perm", Ints{0, 2}}});
              }),
              HasSubstr("2 is out of range"));
  EXPECT_THAT(error_of([] {
                infer_op("transpose", {{DType::f32, {2, 3}}}, {{"perm", Ints{1, 0, 2}}});
              }),
              HasSubstr("has 3 entries, but the input has rank 2"));
}

// --- concat, split -----------------------------------------------------------------------------

TEST(ShapeOpsConcat, JoinsAlongNegativeAxis) {
  Tensor y = run_op("concat", {iota(DType::i32, {2, 2}), ints(DType::i32, {2, 1}, {10, 11})},
                    {{"axis", int64_t{-1}}});
  EXPECT_EQ(y, ints(DType::i32, {2, 3}, {0, 1, 10, 2, 3, 11}));
  Tensor z = run_op("concat", {iota(DType::f64, {1, 2}), iota(DType::f64, {2, 2})},
                    {{"axis", int64_t{0}}});
  EXPECT_EQ(z, Tensor::from_doubles(DType::f64, {3, 2}, {0, 1, 0, 1, 2, 3}));
}

TEST(ShapeOpsConcat, MismatchNamesInputDimensionAndShapes) {
  std::string msg = error_of([] {
    infer_op("concat", {{DType::f32, {2, 3}}, {DType::f32, {3, 3}}}, {{"axis", int64_t{1}}});
  });
  EXPECT_THAT(msg, AllOf(HasSubstr("input 1 [3,3]"), HasSubstr("input 0 [2,3]"),
                         HasSubstr("dimension 0 (3 vs 2)"), HasSubstr("axis 1")));
  EXPECT_THAT(error_of([] {
                infer_op("concat", {{DType::f32, {2}}, {DType::i32, {2}}}, {{"axis", int64_t{0}}});
              }),
              HasSubstr("input 1 is i32 but input 0 is f32"));
  EXPECT_THAT(error_of([] {
                infer_op("concat", {{DType::f32, {2}}}, {{"axis", int64_t{1}}});
              }),
              HasSubstr("'axis' 1 is out of range"));
}

TEST(ShapeOpsSplit, EqualHalves) {
  auto y = run_op_outputs("split", {iota(DType::f32, {2, 4})},
                          {{"axis", int64_t{-1}}, {"parts", int64_t{2}}}, 2);
  EXPECT_EQ(y[0], Tensor::from_doubles(DType::f32, {2, 2}, {0, 1, 4, 5}));
  EXPECT_EQ(y[1], Tensor::from_doubles(DType::f32, {2, 2}, {2, 3, 6, 7}));
}

TEST(ShapeOpsSplit, GivenSizesIncludingZero) {
  auto y = run_op_outputs("split", {iota(DType::i64, {2, 3})},
                          {{"axis", int64_t{1}}, {"split", Ints{1, 0, 2}}}, 3);
  EXPECT_EQ(y[0], ints(DType::i64, {2, 1}, {0, 3}));
  EXPECT_EQ(y[1].shape(), (Shape{2, 0}));
  EXPECT_EQ(y[2], ints(DType::i64, {2, 2}, {1, 2, 4, 5}));
}

TEST(ShapeOpsSplit, ConcatOfSplitIsTheInput) {
  Tensor x = iota(DType::i16, {3, 4});
  auto halves = run_op_outputs("split", {x}, {{"axis", int64_t{1}}}, 2);
  EXPECT_EQ(run_op("concat", halves, {{"axis", int64_t{1}}}), x);
}

TEST(ShapeOpsSplit, ErrorsNameTheMismatch) {
  EXPECT_THAT(error_of([] {
                infer_op("split", {{DType::f32, {5}}}, {}, 2);
              }),
              HasSubstr("cannot split axis 0 of input [5] (size 5) into 2 equal parts"));
  EXPECT_THAT(error_of([] {
                infer_op("split", {{DType::f32, {5}}}, {{"split", Ints{2, 2}}}, 2);
              }),
              HasSubstr("sums to 4 but axis 0 of input [5] has size 5"));
  EXPECT_THAT(error_of([] {
                infer_op("split", {{DType::f32, {6}}}, {{"split", Ints{2, 2, 2}}}, 2);
              }),
              HasSubstr("3 sizes but the node names 2 outputs"));
  EXPECT_THAT(error_of([] {
                infer_op("split", {{DType::f32, {6}}}, {{"parts", int64_t{3}}}, 2);
              }),
              HasSubstr("'parts' is 3 but the node names 2 outputs"));
}

// --- expand, tile ------------------------------------------------------------------------------

TEST(ShapeOpsExpand, BroadcastsBothWays) {
  Tensor y = run_op("expand", {ints(DType::i64, {3, 1}, {1, 2, 3})}, {{"shape", Ints{2, 1, 4}}});
  EXPECT_EQ(y.shape(), (Shape{2, 3, 4}));
  EXPECT_EQ(y, ints(DType::i64, {2, 3, 4},
                    {1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3}));
  EXPECT_EQ(infer_op("expand", {{DType::f32, {2, 3}}}, {{"shape", Ints{1}}})[0].shape,
            (Shape{2, 3}));
  EXPECT_THAT(error_of([] {
                infer_op("expand", {{DType::f32, {3, 2}}}, {{"shape", Ints{4}}});
              }),
              AllOf(HasSubstr("[3,2]"), HasSubstr("[4]"), HasSubstr("dimension 1")));
}

TEST(ShapeOpsTile, RepeatsWholeCopies) {
  Tensor x = ints(DType::i8, {2, 2}, {1, 2, 3, 4});
  EXPECT_EQ(run_op("tile", {x}, {{"repeats", Ints{1, 2}}}),
            ints(DType::i8, {2, 4}, {1, 2, 1, 2, 3, 4, 3, 4}));
  EXPECT_EQ(run_op("tile", {x}, {{"repeats", Ints{2, 1}}}),
            ints(DType::i8, {4, 2}, {1, 2, 3, 4, 1, 2, 3, 4}));
  EXPECT_EQ(run_op("tile", {x}, {{"repeats", Ints{0, 3}}}).shape(), (Shape{0, 6}));
  EXPECT_THAT(error_of([] {
                infer_op("tile", {{DType::f32, {2, 2}}}, {{"repeats", Ints{2}}});
              }),
              HasSubstr("1 entries but the input [2,2] has rank 2"));
  EXPECT_THAT(error_of([] {
                infer_op("tile", {{DType::f32, {2, 2}}}, {{"repeats", Ints{INT64_MAX, 2}}});
              }),
              HasSubstr("overflows"));
}

// --- shape -------------------------------------------------------------------------------------

TEST(ShapeOpsShape, ReportsClampedRange) {
  Tensor x = iota(DType::f32, {2, 3, 4, 5});
  EXPECT_EQ(run_op("shape", {x}), ints(DType::i64, {4}, {2, 3, 4, 5}));
  EXPECT_EQ(run_op("shape", {x}, {{"start", int64_t{-1}}}), ints(DType::i64, {1}, {5}));
  EXPECT_EQ(run_op("shape", {x}, {{"start", int64_t{1}}, {"end", int64_t{-1}}}),
            ints(DType::i64, {2}, {3, 4}));
  EXPECT_EQ(run_op("shape", {x}, {{"start", int64_t{-10}}, {"end", int64_t{10}}}),
            ints(DType::i64, {4}, {2, 3, 4, 5}));
  EXPECT_EQ(run_op("shape", {x}, {{"start", int64_t{3}}, {"end", int64_t{1}}}).shape(), (Shape{0}));
}

// --- registry entries --------------------------------------------------------------------------

TEST(ShapeOpsRegistry, EveryOpMapsToOnnxAndDocumentsItself) {
  const OpRegistry& reg = OpRegistry::instance();
  for (const char* name : {"reshape", "flatten", "squeeze", "unsqueeze", "transpose", "concat",
                           "split", "slice", "pad", "gather", "expand", "tile", "shape"}) {
    const OpDef& op = reg.get(name);
    EXPECT_FALSE(op.doc.empty()) << name;
    EXPECT_TRUE(op.has_tag("shape")) << name;
    EXPECT_EQ(reg.find_onnx(op.onnx.op_type), &op) << name;
    for (const auto& in : op.onnx.attr_inputs) {
      const AttrSpec* spec = op.find_attr(in.attr);
      ASSERT_NE(spec, nullptr) << name << " " << in.attr;
      EXPECT_FALSE(spec->onnx) << name << " " << in.attr;
    }
  }
  // Reshape-14 and Shape-15 only added attributes whose defaults give the -13 definitions.
  EXPECT_EQ(reg.get("reshape").onnx.since_opset, 13);
  EXPECT_EQ(reg.get("shape").onnx.since_opset, 13);
  EXPECT_EQ(reg.get("split").num_outputs, -1);
  EXPECT_FALSE(reg.get("split").find_attr("parts")->onnx);
  const auto& pad_inputs = reg.get("pad").onnx.attr_inputs;
  ASSERT_EQ(pad_inputs.size(), 2u);
  EXPECT_EQ(pad_inputs[1].attr, "constant_value");
  EXPECT_EQ(pad_inputs[1].index, 2);
  EXPECT_EQ(pad_inputs[1].form, OnnxAttrInput::Form::ScalarOfInput0);
  const auto& slice_inputs = reg.get("slice").onnx.attr_inputs;
  ASSERT_EQ(slice_inputs.size(), 4u);
  EXPECT_EQ(slice_inputs[3].attr, "steps");
  EXPECT_EQ(slice_inputs[3].index, 4);
}

}  // namespace
}  // namespace retort
