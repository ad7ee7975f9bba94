#include <gtest/gtest.h>

#include "core/ops/registry.h"
#include "tests/core/ops/nn_test_util.h"

namespace retort {
namespace {

using namespace testing::nn;
using Ints = std::vector<int64_t>;

Attrs resize_attrs(Ints sizes, std::string mode, std::string coord, std::string rounding = "") {
  Attrs a{{"sizes", std::move(sizes)},
          {"mode", std::move(mode)},
          {"coordinate_transformation_mode", std::move(coord)}};
  if (!rounding.empty()) a["nearest_mode"] = std::move(rounding);
  return a;
}

// x = [10, 20, 30, 40] along one axis. Doubling with half_pixel maps output j to (j + 0.5) / 2 -
// 0.5: -0.25, 0.25, 0.75, ...; halving maps j to 2j + 0.5, a tie that the rounding decides.
TEST(OpsResize, NearestRoundings) {
  Tensor x = f32({1, 1, 4}, {10, 20, 30, 40});
  expect_close(run_op("resize", {x}, resize_attrs({1, 1, 8}, "nearest", "half_pixel")), {1, 1, 8},
               {10, 10, 20, 20, 30, 30, 40, 40});
  expect_close(run_op("resize", {x}, resize_attrs({1, 1, 2}, "nearest", "half_pixel")), {1, 1, 2},
               {10, 30});
  expect_close(
      run_op("resize", {x}, resize_attrs({1, 1, 2}, "nearest", "half_pixel", "round_prefer_ceil")),
      {1, 1, 2}, {20, 40});
  // asymmetric + floor (torch's "nearest"): j * 4 / 6 = 0, 0.67, 1.33, 2, 2.67, 3.33.
  expect_close(run_op("resize", {x}, resize_attrs({1, 1, 6}, "nearest", "asymmetric", "floor")),
               {1, 1, 6}, {10, 10, 20, 30, 30, 40});
  expect_close(run_op("resize", {x}, resize_attrs({1, 1, 6}, "nearest", "asymmetric", "ceil")),
               {1, 1, 6}, {10, 20, 30, 30, 40, 40});
}

TEST(OpsResize, Linear) {
  Tensor x = f32({1, 1, 4}, {10, 20, 30, 40});
  // half_pixel: -0.25 and 3.25 clamp to the edges; 0.25 is 10 * 0.75 + 20 * 0.25.
  expect_close(run_op("resize", {x}, resize_attrs({1, 1, 8}, "linear", "half_pixel")), {1, 1, 8},
               {10, 12.5, 17.5, 22.5, 27.5, 32.5, 37.5, 40});
  // align_corners: j * 3 / 6.
  expect_close(run_op("resize", {x}, resize_attrs({1, 1, 7}, "linear", "align_corners")), {1, 1, 7},
               {10, 15, 20, 25, 30, 35, 40});
  // pytorch_half_pixel to one element reads position 0; half_pixel reads the middle.
  expect_close(run_op("resize", {x}, resize_attrs({1, 1, 1}, "linear", "pytorch_half_pixel")),
               {1, 1, 1}, {10});
  expect_close(run_op("resize", {x}, resize_attrs({1, 1, 1}, "linear", "half_pixel")), {1, 1, 1},
               {25});
  // 2-D: a bilinear blend of the four corners.
  Tensor y = f32({1, 1, 2, 2}, {0, 4, 8, 12});
  expect_close(run_op("resize", {y}, resize_attrs({1, 1, 3, 3}, "linear", "align_corners")),
               {1, 1, 3, 3}, {0, 2, 4, 4, 6, 8, 8, 10, 12});
}

TEST(OpsResize, Errors) {
  TensorType x{DType::f32, {1, 2, 4}};
  std::string msg = infer_error("resize", {x}, resize_attrs({1, 3, 4}, "nearest", "half_pixel"));
  EXPECT_NE(msg.find("batch and channel"), std::string::npos) << msg;
  msg = infer_error("resize", {x}, resize_attrs({1, 2, 4}, "cubic", "half_pixel"));
  EXPECT_NE(msg.find("\"nearest\" or \"linear\""), std::string::npos) << msg;
  msg = infer_error("resize", {x}, resize_attrs({1, 2, 4}, "linear", "tf_crop_and_resize"));
  EXPECT_NE(msg.find("coordinate_transformation_mode"), std::string::npos) << msg;
  msg = infer_error("resize", {x}, resize_attrs({1, 2, 0}, "nearest", "half_pixel"));
  EXPECT_NE(msg.find("positive"), std::string::npos) << msg;
  EXPECT_EQ(OpRegistry::instance().find_onnx("Resize")->name, "resize");
}

}  // namespace
}  // namespace retort
