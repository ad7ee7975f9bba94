#include <gtest/gtest.h>

#include "core/ops/registry.h"
#include "tests/core/ops/nn_test_util.h"

namespace retort {
namespace {

using namespace testing::nn;
using testing::ints;

// Round half to even, then the zero point, then saturation to the zero point's dtype.
TEST(OpsQuant, QuantizePerTensor) {
  Tensor x = f32({6}, {-1.0, 0.0, 0.5, 1.5, 2.5, 300});
  Tensor one = f32({}, {1.0});
  Tensor y = run_op("quantize_linear", {x, one});
  EXPECT_EQ(y.dtype(), DType::u8);
  expect_ints(y, {0, 0, 0, 2, 2, 255});
  expect_ints(run_op("quantize_linear", {x, one, ints(DType::u8, {}, {10})}),
              {9, 10, 10, 12, 12, 255});
  Tensor half = f32({}, {0.5});
  Tensor i8 = run_op("quantize_linear", {x, half, ints(DType::i8, {}, {-1})});
  EXPECT_EQ(i8.dtype(), DType::i8);
  expect_ints(i8, {-3, -1, 0, 2, 4, 127});
}

// ONNX divides in float32: 0.35f / 0.1f is 3.5 in f32 (4 after rounding), 3.4999999 in double.
TEST(OpsQuant, QuantizeDividesInFloat32) {
  Tensor x = f32({3}, {0.35, 0.75, 0.85});
  expect_ints(run_op("quantize_linear", {x, f32({}, {0.1})}), {4, 8, 8});
}

TEST(OpsQuant, QuantizeAndDequantizePerAxis) {
  Tensor x = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor scale = f32({3}, {1, 2, 4});
  Tensor zero = ints(DType::u8, {3}, {0, 1, 2});
  expect_ints(run_op("quantize_linear", {x, scale, zero}), {1, 2, 3, 4, 3, 4});
  // Along axis 0 (counted from the end: -2), a scale per row.
  Tensor rows = f32({2}, {1, 4});
  expect_ints(run_op("quantize_linear", {x, rows}, {{"axis", int64_t{-2}}}), {1, 2, 3, 1, 1, 2});
  Tensor q = ints(DType::i8, {2, 3}, {-128, 0, 127, 5, 6, 7});
  Tensor y = run_op("dequantize_linear", {q, scale, ints(DType::i8, {3}, {0, 1, -1})});
  EXPECT_EQ(y.dtype(), DType::f32);
  expect_close(y, {2, 3}, {-128, -2, 512, 5, 10, 32});
  Tensor u = ints(DType::u8, {3}, {0, 10, 255});
  expect_close(run_op("dequantize_linear", {u, f32({}, {0.5}), ints(DType::u8, {}, {10})}), {3},
               {-5, 0, 122.5});
}

TEST(OpsQuant, Errors) {
  TensorType x{DType::f32, {2, 3}}, s{DType::f32, {}};
  std::string msg = infer_error("quantize_linear", {x, {DType::f32, {2}}});
  EXPECT_NE(msg.find("extent 3"), std::string::npos) << msg;
  msg = infer_error("quantize_linear", {x, s, {DType::i32, {}}});
  EXPECT_NE(msg.find("i32"), std::string::npos) << msg;
  msg = infer_error("quantize_linear", {x, {DType::f32, {3}}, {DType::u8, {}}});
  EXPECT_NE(msg.find("shape of the scale"), std::string::npos) << msg;
  msg = infer_error("dequantize_linear", {{DType::u8, {3}}, s, {DType::i8, {}}});
  EXPECT_NE(msg.find("x's dtype u8"), std::string::npos) << msg;
  msg = infer_error("dequantize_linear", {{DType::f32, {3}}, s});
  EXPECT_NE(msg.find("f32"), std::string::npos) << msg;
  const OpRegistry& r = OpRegistry::instance();
  EXPECT_EQ(r.find_onnx("QuantizeLinear")->name, "quantize_linear");
  EXPECT_EQ(r.find_onnx("DequantizeLinear")->name, "dequantize_linear");
}

}  // namespace
}  // namespace retort
