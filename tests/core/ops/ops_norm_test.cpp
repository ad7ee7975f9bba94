#include <gtest/gtest.h>

#include <cmath>

#include "core/ops/registry.h"
#include "tests/core/ops/nn_test_util.h"

namespace retort {
namespace {

using namespace testing::nn;

TEST(OpsNorm, BatchNormPerChannel) {
  Tensor x = f32({1, 2, 1, 3}, {-1, 0, 1, 2, 3, 4});
  Tensor scale = f32({2}, {1.0, 1.5});
  Tensor b = f32({2}, {0, 1});
  Tensor mean = f32({2}, {0, 3});
  Tensor var = f32({2}, {1, 1.5});
  // Channel 0: x / sqrt(1 + eps); channel 1: (x - 3) / sqrt(1.5 + eps) * 1.5 + 1.
  double e = double{1e-5f};  // ONNX's default, a float32
  double s0 = 1 / std::sqrt(1 + e), s1 = 1.5 / std::sqrt(1.5 + e);
  expect_close(run_op("batch_norm", {x, scale, b, mean, var}), {1, 2, 1, 3},
               {-s0, 0, s0, 1 - s1, 1, 1 + s1});
  expect_close(run_op("batch_norm", {x, scale, b, mean, var}, {{"epsilon", 0.5}}), {1, 2, 1, 3},
               {-1 / std::sqrt(1.5), 0, 1 / std::sqrt(1.5), 1 - 1.5 / std::sqrt(2), 1,
                1 + 1.5 / std::sqrt(2)});
}

TEST(OpsNorm, BatchNormErrors) {
  TensorType x{DType::f32, {2, 3, 4}}, c{DType::f32, {3}};
  std::string msg = infer_error("batch_norm", {x, c, c, {DType::f32, {4}}, c});
  EXPECT_NE(msg.find("input_mean"), std::string::npos) << msg;
  EXPECT_NE(msg.find("[3]"), std::string::npos) << msg;
  msg = infer_error("batch_norm", {x, c, c, c, c}, {{"training_mode", int64_t{1}}});
  EXPECT_NE(msg.find("inference"), std::string::npos) << msg;
  msg = infer_error("batch_norm", {x, c, {DType::f64, {3}}, c, c});
  EXPECT_NE(msg.find("share"), std::string::npos) << msg;
  EXPECT_EQ(infer_op("batch_norm", {{DType::f16, {2, 3}}, c, c, c, c}),
            (TensorType{DType::f16, {2, 3}}));
}

// Each row from the axis on is one block: row 0 has mean 2 and (biased) variance 2/3; row 1 is
// constant, so its normalized values are 0 and y is b.
TEST(OpsNorm, LayerNormPerRowAndWholeTensor) {
  Tensor x = f32({2, 3}, {1, 2, 3, 2, 2, 2});
  Tensor scale = f32({3}, {1, 2, 0.5});
  Tensor b = f32({3}, {0, 1, -1});
  double e = double{1e-5f};
  double s = 1 / std::sqrt(2.0 / 3 + e);
  expect_close(run_op("layer_norm", {x, scale, b}), {2, 3}, {-s, 1, 0.5 * s - 1, 0, 1, -1});
  expect_close(run_op("layer_norm", {x, scale}), {2, 3}, {-s, 0, 0.5 * s, 0, 0, 0});
  // axis 0: one block of six, mean 2, variance 1/3; scale of x's whole shape.
  Tensor scale6 = f32({2, 3}, {1, 1, 1, 2, 2, 2});
  double t = 1 / std::sqrt(1.0 / 3 + 0.5);
  expect_close(run_op("layer_norm", {x, scale6}, {{"axis", int64_t{0}}, {"epsilon", 0.5}}), {2, 3},
               {-t, 0, t, 0, 0, 0});
}

TEST(OpsNorm, LayerNormErrors) {
  TensorType x{DType::f32, {2, 3, 4}};
  std::string msg = infer_error("layer_norm", {x, {DType::f32, {3, 4}}});
  EXPECT_NE(msg.find("normalized shape f32[4]"), std::string::npos) << msg;
  EXPECT_EQ(infer_op("layer_norm", {x, {DType::f32, {3, 4}}}, {{"axis", int64_t{-2}}}), x);
  msg = infer_error("layer_norm", {x, {DType::f32, {4}}}, {{"stash_type", int64_t{0}}});
  EXPECT_NE(msg.find("stash_type"), std::string::npos) << msg;
  msg = infer_error("layer_norm", {x, {DType::f64, {4}}});
  EXPECT_NE(msg.find("f32 like x"), std::string::npos) << msg;
  msg = infer_error("layer_norm", {{DType::i32, {2, 3}}, {DType::i32, {3}}});
  EXPECT_NE(msg.find("i32"), std::string::npos) << msg;
}

// Channel 0's plane [1, 3]: mean 2, variance 1; channel 1's plane is constant, so y is b.
TEST(OpsNorm, InstanceNormPerPlane) {
  Tensor x = f32({2, 2, 2}, {1, 3, 5, 5, 0, 4, -1, 1});
  Tensor scale = f32({2}, {2, 3});
  Tensor b = f32({2}, {1, -1});
  double e = double{1e-5f};
  double s1 = 1 / std::sqrt(1 + e), s4 = 1 / std::sqrt(4 + e);
  expect_close(run_op("instance_norm", {x, scale, b}), {2, 2, 2},
               {1 - 2 * s1, 1 + 2 * s1, -1, -1, 1 - 4 * s4, 1 + 4 * s4, -1 - 3 * s1, -1 + 3 * s1});
}

TEST(OpsNorm, InstanceNormErrors) {
  TensorType c{DType::f32, {3}};
  std::string msg = infer_error("instance_norm", {{DType::f32, {2, 3}}, c, c});
  EXPECT_NE(msg.find("rank"), std::string::npos) << msg;
  msg = infer_error("instance_norm", {{DType::f32, {2, 3, 4}}, c, {DType::f32, {4}}});
  EXPECT_NE(msg.find("'b' must be f32[3]"), std::string::npos) << msg;
}

// Two groups of two channels. Sample 0: group 0 is [1, 3, 1, 3] (mean 2, variance 1), group 1
// [0, 4, 0, 4] (mean 2, variance 4); scale and b stay per channel. Sample 1 is constant: y is b.
TEST(OpsNorm, GroupNormPerGroupOfChannels) {
  Tensor x = f32({2, 4, 2}, {1, 3, 1, 3, 0, 4, 0, 4, 5, 5, 5, 5, 5, 5, 5, 5});
  Tensor scale = f32({4}, {1, 2, 3, 4});
  Tensor b = f32({4}, {0, 1, 2, 3});
  double e = double{1e-5f};
  double a = 1 / std::sqrt(1 + e), c = 1 / std::sqrt(4 + e);
  expect_close(run_op("group_norm", {x, scale, b}, {{"num_groups", int64_t{2}}}), {2, 4, 2},
               {-a, a, 1 - 2 * a, 1 + 2 * a, 2 - 6 * c, 2 + 6 * c, 3 - 8 * c, 3 + 8 * c, 0, 0, 1, 1,
                2, 2, 3, 3});
  // One group per channel is instance_norm; rank 2 normalizes each group's channels alone.
  Tensor x3 = f32({1, 2, 3}, {1, 2, 3, 0, 0, 6});
  Tensor s2 = f32({2}, {2, 3}), b2 = f32({2}, {1, -1});
  EXPECT_EQ(run_op("group_norm", {x3, s2, b2}, {{"num_groups", int64_t{2}}}),
            run_op("instance_norm", {x3, s2, b2}));
  expect_close(run_op("group_norm", {f32({1, 4}, {1, 3, 0, 4}), scale, b},
                      {{"num_groups", int64_t{2}}, {"epsilon", 0.0}}),
               {1, 4}, {-1, 3, 2 - 3, 3 + 4});
}

TEST(OpsNorm, GroupNormErrors) {
  TensorType x{DType::f32, {2, 6, 4}}, c{DType::f32, {6}};
  std::string msg = infer_error("group_norm", {x, c, c}, {{"num_groups", int64_t{4}}});
  EXPECT_NE(msg.find("num_groups 4 must divide the 6 channels"), std::string::npos) << msg;
  msg = infer_error("group_norm", {x, c, {DType::f32, {3}}}, {{"num_groups", int64_t{3}}});
  EXPECT_NE(msg.find("'b' must be f32[6]"), std::string::npos) << msg;
  msg = infer_error("group_norm", {{DType::f32, {0, 6}}, c, c}, {{"num_groups", int64_t{3}}});
  EXPECT_NE(msg.find("has no elements"), std::string::npos) << msg;
  msg = infer_error("group_norm", {{DType::f32, {6}}, c, c}, {{"num_groups", int64_t{3}}});
  EXPECT_NE(msg.find("rank"), std::string::npos) << msg;
}

TEST(OpsNorm, SoftmaxAlongLastAxis) {
  Tensor x = f32({2, 3}, {1, 2, 3, 0, 0, 0});
  double z = std::exp(1) + std::exp(2) + std::exp(3);
  expect_close(run_op("softmax", {x}), {2, 3},
               {std::exp(1) / z, std::exp(2) / z, std::exp(3) / z, 1.0 / 3, 1.0 / 3, 1.0 / 3});
  expect_close(run_op("log_softmax", {x}), {2, 3},
               {1 - std::log(z), 2 - std::log(z), 3 - std::log(z), -std::log(3), -std::log(3),
                -std::log(3)});
}

TEST(OpsNorm, SoftmaxOtherAxesAndLargeNumbers) {
  Tensor x = f32({2, 2}, {0, 1000, 0, 1000});
  expect_close(run_op("softmax", {x}, {{"axis", int64_t{0}}}), {2, 2}, {0.5, 0.5, 0.5, 0.5});
  expect_close(run_op("softmax", {x}, {{"axis", int64_t{1}}}), {2, 2}, {0, 1, 0, 1});
  expect_close(run_op("log_softmax", {x}), {2, 2}, {-1000, 0, -1000, 0});
  Tensor n = f32({2, 2}, {NAN, 1, 2, 3});
  expect_close(run_op("softmax", {n}), {2, 2},
               {NAN, NAN, 1 / (1 + std::exp(1)), std::exp(1) / (1 + std::exp(1))});
}

TEST(OpsNorm, SoftmaxErrors) {
  std::string msg = infer_error("softmax", {{DType::f32, {2, 3}}}, {{"axis", int64_t{2}}});
  EXPECT_NE(msg.find("axis 2"), std::string::npos) << msg;
  msg = infer_error("log_softmax", {{DType::i32, {2, 3}}});
  EXPECT_NE(msg.find("i32"), std::string::npos) << msg;
  msg = infer_error("softmax", {{DType::f32, {}}});
  EXPECT_NE(msg.find("rank"), std::string::npos) << msg;
}

TEST(OpsNorm, RegistryEntries) {
  const OpRegistry& r = OpRegistry::instance();
  EXPECT_EQ(r.find_onnx("BatchNormalization")->name, "batch_norm");
  EXPECT_EQ(r.find_onnx("Softmax")->name, "softmax");
  EXPECT_EQ(r.find_onnx("LogSoftmax")->name, "log_softmax");
  EXPECT_EQ(r.find_onnx("LayerNormalization")->name, "layer_norm");
  EXPECT_EQ(r.find_onnx("InstanceNormalization")->name, "instance_norm");
  EXPECT_EQ(r.find_onnx("GroupNormalization")->name, "group_norm");
  EXPECT_EQ(r.get("softmax").find_attr("axis")->default_value, AttrValue{int64_t{-1}});
}

}  // namespace
}  // namespace retort
