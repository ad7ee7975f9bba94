#include <cmath>

#include <gtest/gtest.h>

#include "core/base/half.h"
#include "core/ops/registry.h"
#include "tests/core/ops/op_test_util.h"

namespace retort {
namespace {

using namespace testing;

Tensor i32(Shape s, std::vector<int64_t> v) {
  return ints(DType::i32, std::move(s), v);
}

TEST(VariadicOps, MaxMinOverThreeBroadcastInputs) {
  Tensor a = i32({2, 1}, {1, 10});
  Tensor b = i32({3}, {5, -2, 20});
  Tensor c = i32({}, {3});
  Tensor mx = run_op("max", {a, b, c});
  EXPECT_EQ(mx.shape(), (Shape{2, 3}));
  expect_ints(mx, {5, 3, 20, 10, 10, 20});
  expect_ints(run_op("min", {a, b, c}), {1, -2, 1, 3, -2, 3});
}

TEST(VariadicOps, MaxMinPropagateNaNWhateverItsPosition) {
  Tensor a = f32({3}, {kNaN, 1, 2});
  Tensor b = f32({3}, {1, kNaN, -kInf});
  expect_values(run_op("max", {a, b}), {kNaN, kNaN, 2});
  expect_values(run_op("min", {a, b}), {kNaN, kNaN, -kInf});
  expect_values(run_op("min", {b, a}), {kNaN, kNaN, -kInf});
}

TEST(VariadicOps, OneInputIsTheInput) {
  Tensor a = f32({2}, {1.5, -2});
  EXPECT_EQ(run_op("max", {a}), a);
  EXPECT_EQ(run_op("sum", {a}), a);
  EXPECT_EQ(run_op("mean", {a}), a);
}

TEST(VariadicOps, IntegerMaxIsExact) {
  int64_t big = (int64_t{1} << 62) + 1;
  Tensor a = ints(DType::i64, {1}, {big});
  Tensor b = ints(DType::i64, {1}, {big - 1});
  expect_ints(run_op("max", {a, b}), {big});
  expect_ints(run_op("min", {a, b}), {big - 1});
}

TEST(VariadicOps, SumAndMeanAreRoundedOnce) {
  Tensor s = run_op("sum", {f32({2, 1}, {1, 2}), f32({2}, {10, 20}), f32({}, {100})});
  EXPECT_EQ(s.shape(), (Shape{2, 2}));
  expect_values(s, {111, 121, 112, 122});
  // In f16, 2048 + 1 rounds back to 2048; summed in double and rounded once it is 2050.
  Tensor h = Tensor::from_doubles(DType::f16, {1}, {2048});
  Tensor one = Tensor::from_doubles(DType::f16, {1}, {1});
  expect_values(run_op("sum", {h, one, one}), {2050});
  expect_values(run_op("mean", {f32({2}, {1, 2}), f32({2}, {3, 5})}), {2, 3.5});
  expect_values(run_op("mean", {f32({1}, {1}), f32({1}, {kNaN})}), {kNaN});
}

TEST(VariadicOps, InferenceErrors) {
  std::string err = error_of([] { infer_op("sum", {{DType::i32, {2}}, {DType::i32, {2}}}); });
  EXPECT_EQ(err, "op 'sum' needs a float dtype, got i32");
  err = error_of([] { infer_op("max", {{DType::i8, {2}}, {DType::i16, {2}}}); });
  EXPECT_EQ(err, "inputs must share one dtype, got i8 and i16");
  err = error_of([] {
    infer_op("min", {{DType::f32, {2}}, {DType::f32, {2}}, {DType::f32, {3}}});
  });
  EXPECT_EQ(err, "shapes [2] and [3] do not broadcast");
}

TEST(VariadicOps, WhereSelectsWithBroadcast) {
  Tensor cond = ints(DType::boolean, {2, 1}, {1, 0});
  Tensor x = f32({3}, {1, 2, 3});
  Tensor y = f32({}, {-1});
  Tensor out = run_op("where", {cond, x, y});
  EXPECT_EQ(out.shape(), (Shape{2, 3}));
  expect_values(out, {1, 2, 3, -1, -1, -1});
  int64_t big = (int64_t{1} << 62) + 1;
  Tensor xi = ints(DType::i64, {2}, {big, 1});
  Tensor yi = ints(DType::i64, {2}, {2, -big});
  expect_ints(run_op("where", {ints(DType::boolean, {2}, {1, 0}), xi, yi}), {big, -big});
}

TEST(VariadicOps, WhereInferenceErrors) {
  std::string err = error_of([] {
    infer_op("where", {{DType::f32, {2}}, {DType::f32, {2}}, {DType::f32, {2}}});
  });
  EXPECT_EQ(err, "input 'cond' of op 'where' must be bool, got f32");
  err = error_of([] {
    infer_op("where", {{DType::boolean, {2}}, {DType::f32, {2}}, {DType::f16, {2}}});
  });
  EXPECT_EQ(err, "inputs 'x' and 'y' of op 'where' must share one dtype, got f32 and f16");
}

TEST(VariadicOps, ClipWithBothOneOrNoBounds) {
  Tensor x = f32({5}, {-2, 0.5, 3, kNaN, -kInf});
  expect_values(run_op("clip", {x}, {{"min", -1.0}, {"max", 1.0}}), {-1, 0.5, 1, kNaN, -1});
  expect_values(run_op("clip", {x}, {{"min", 0.0}}), {0, 0.5, 3, kNaN, 0});
  expect_values(run_op("clip", {x}, {{"max", 0.0}}), {-2, 0, 0, kNaN, -kInf});
  expect_values(run_op("clip", {x}), {-2, 0.5, 3, kNaN, -kInf});
  // min > max: every value becomes max.
  expect_values(run_op("clip", {x}, {{"min", 2.0}, {"max", 1.0}}), {1, 1, 1, kNaN, 1});
}

TEST(VariadicOps, ClipOnIntegers) {
  Tensor x = ints(DType::i8, {4}, {-128, -5, 0, 127});
  expect_ints(run_op("clip", {x}, {{"min", -1.5}, {"max", 2.5}}), {-1, -1, 0, 2});
  expect_ints(run_op("clip", {x}, {{"max", int64_t{5}}}), {-128, -5, 0, 5});
  int64_t big = (int64_t{1} << 62) + 1;
  expect_ints(run_op("clip", {ints(DType::i64, {1}, {big})}, {{"min", 0.0}}), {big});
}

// ONNX gives Clip's bounds as tensors of x's dtype, so they saturate to the dtype before
// clipping: on u8, min 1.5 is 2 and max -1.25 is 0, and everything becomes 0 (ONNX Runtime, XLA,
// TVM and onnx.reference agree). Clipping at -2 in i64 wrapped to 254.
TEST(VariadicOps, ClipSaturatesIntegerBoundsToTheDtypeFirst) {
  Tensor x = ints(DType::u8, {4}, {0, 1, 7, 255});
  expect_ints(run_op("clip", {x}, {{"min", 1.5}, {"max", -1.25}}), {0, 0, 0, 0});
  expect_ints(run_op("clip", {x}, {{"max", -3.0}}), {0, 0, 0, 0});
  expect_ints(run_op("clip", {x}, {{"min", 300.0}}), {255, 255, 255, 255});
  Tensor s = ints(DType::i8, {3}, {-128, 0, 127});
  expect_ints(run_op("clip", {s}, {{"min", 500.0}, {"max", -500.0}}), {-128, -128, -128});
}

// The exported bound is the value the kernel clips at.
TEST(VariadicOps, ClipExportsTheBoundTheKernelUses) {
  const OpDef& clip = OpRegistry::instance().get("clip");
  Attrs a{{"min", 1.5}, {"max", -1.25}};
  EXPECT_EQ(clip.onnx.attr_inputs[0].to_onnx(a, DType::u8).get_int(0), 2);
  EXPECT_EQ(clip.onnx.attr_inputs[1].to_onnx(a, DType::u8).get_int(0), 0);
}

TEST(VariadicOps, ClipBoundsAreOnnxInputsAndStayAbsentWhenNotGiven) {
  const OpRegistry& reg = OpRegistry::instance();
  const OpDef& clip = reg.get("clip");
  ASSERT_EQ(clip.onnx.attr_inputs.size(), 2u);
  EXPECT_EQ(clip.onnx.attr_inputs[0].attr, "min");
  EXPECT_EQ(clip.onnx.attr_inputs[0].index, 1);
  EXPECT_EQ(clip.onnx.attr_inputs[1].attr, "max");
  EXPECT_EQ(clip.onnx.attr_inputs[1].index, 2);
  EXPECT_EQ(clip.onnx.attr_inputs[1].form, OnnxAttrInput::Form::ScalarOfInput0);
  EXPECT_FALSE(clip.find_attr("min")->onnx);
  Attrs a = reg.normalize_attrs(clip, {{"max", 1.0}});
  EXPECT_FALSE(has_attr(a, "min"));
  EXPECT_TRUE(has_attr(a, "max"));
}

TEST(VariadicOps, CastFollowsTheDocumentedConversions) {
  Tensor x = f32({5}, {2.7, -2.7, 300, kNaN, -1});
  Tensor c = run_op("cast", {x}, {{"to", std::string("i8")}});
  EXPECT_EQ(c.dtype(), DType::i8);
  expect_ints(c, {2, -2, 44, 0, -1});
  expect_ints(run_op("cast", {x}, {{"to", std::string("u8")}}), {2, 254, 44, 0, 255});
  expect_ints(run_op("cast", {f32({2}, {kInf, -kInf})}, {{"to", std::string("i32")}}), {-1, 0});
  expect_ints(run_op("cast", {f32({3}, {0, 0.5, kNaN})}, {{"to", std::string("bool")}}), {0, 1, 1});
  Tensor h = run_op("cast", {Tensor::from_doubles(DType::f64, {1}, {1.0 / 3})},
                    {{"to", std::string("f16")}});
  EXPECT_EQ(h.data<uint16_t>()[0], float_to_half(1.0f / 3));
  int64_t big = (int64_t{1} << 62) + 1;
  expect_ints(run_op("cast", {ints(DType::i64, {1}, {big})}, {{"to", std::string("i32")}}), {1});
}

TEST(VariadicOps, CastNeedsAKnownTargetDtype) {
  const OpRegistry& reg = OpRegistry::instance();
  const OpDef& cast = reg.get("cast");
  std::string err = error_of([&] { reg.normalize_attrs(cast, {}); });
  EXPECT_NE(err.find("needs attribute 'to'"), std::string::npos) << err;
  err = error_of([&] { reg.normalize_attrs(cast, {{"to", std::string("f99")}}); });
  EXPECT_NE(err.find("must be dtype"), std::string::npos) << err;
  auto out = infer_op("cast", {{DType::f32, {2, 3}}}, {{"to", std::string("f64")}});
  EXPECT_EQ(out[0], (TensorType{DType::f64, {2, 3}}));
}

TEST(VariadicOps, DocsAndOnnxNames) {
  const OpRegistry& reg = OpRegistry::instance();
  EXPECT_EQ(reg.find_onnx("Max")->name, "max");
  EXPECT_EQ(reg.find_onnx("Where")->name, "where");
  EXPECT_EQ(reg.find_onnx("Cast")->name, "cast");
  EXPECT_EQ(reg.get("sum").max_inputs, -1);
  for (const char* name : {"max", "min", "sum", "mean", "where", "clip", "cast"})
    EXPECT_FALSE(reg.get(name).doc.empty()) << name;
}

}  // namespace
}  // namespace retort
