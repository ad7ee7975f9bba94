#include <gtest/gtest.h>

#include <cmath>

#include "core/base/rng.h"
#include "core/ops/conv_geometry.h"
#include "core/ops/index_space.h"
#include "core/ops/op_def.h"
#include "core/tensor/random_tensor.h"
#include "tests/core/ops/nn_test_util.h"

namespace retort {
namespace {

using namespace testing::nn;

Tensor ones(Shape s) {
  Tensor t(DType::f32, std::move(s));
  for (int64_t i = 0; i < t.numel(); ++i) t.set(i, 1);
  return t;
}

TEST(OpsConvPool, ConvWithAndWithoutPadding) {
  Tensor x = iota(DType::f32, {1, 1, 5, 5});
  Tensor w = ones({1, 1, 3, 3});
  expect_close(run_op("conv", {x, w}, {{"pads", std::vector<int64_t>{1, 1, 1, 1}}}), {1, 1, 5, 5},
               {12,  21, 27, 33,  24,  33,  54,  63, 72,  51,  63,  99, 108,
                117, 81, 93, 144, 153, 162, 111, 72, 111, 117, 123, 84});
  expect_close(run_op("conv", {x, w}), {1, 1, 3, 3}, {54, 63, 72, 99, 108, 117, 144, 153, 162});
}

// Padding is zeros, and zero times an infinite weight is NaN (ONNX's reference and ONNX Runtime
// compute it so): an output whose window holds a padding tap of such a weight is NaN, one whose
// window meets it only inside the input is not.
TEST(OpsConvPool, ConvPaddingTimesAnInfiniteWeightIsNan) {
  Tensor x = ones({1, 1, 4, 4});
  for (int64_t filters : {1, 8}) {  // the plain and the filter-blocked loops
    Tensor w = ones({filters, 1, 3, 3});
    w.set(0, -INFINITY);  // filter 0, tap (0, 0): padding for the outputs of row 0 or column 0
    Tensor y = run_op("conv", {x, w}, {{"pads", std::vector<int64_t>{1, 1, 1, 1}}});
    for (int64_t r = 0; r < 4; ++r)
      for (int64_t c = 0; c < 4; ++c) {
        double v = y.get(r * 4 + c);
        EXPECT_EQ(std::isnan(v), r == 0 || c == 0)
            << filters << " filters, (" << r << ", " << c << "): " << v;
      }
    if (filters > 1) {
      EXPECT_EQ(y.get(16), 4);  // filter 1, (0, 0): all finite
    }
  }
}

TEST(OpsConvPool, ConvStridesPadsAndBias) {
  Tensor x = iota(DType::f32, {1, 1, 7, 5});
  Tensor w = ones({1, 1, 3, 3});
  Tensor b = f32({1}, {0.5});
  Attrs attrs{{"pads", std::vector<int64_t>{1, 1, 1, 1}}, {"strides", std::vector<int64_t>{2, 2}}};
  expect_close(run_op("conv", {x, w, b}, attrs), {1, 1, 4, 3},
               {12.5, 27.5, 24.5, 63.5, 108.5, 81.5, 123.5, 198.5, 141.5, 112.5, 177.5, 124.5});
  // Asymmetric padding: top 1, left 0, bottom 1, right 0.
  attrs["pads"] = std::vector<int64_t>{1, 0, 1, 0};
  expect_close(run_op("conv", {x, w}, attrs), {1, 1, 4, 2}, {21, 33, 99, 117, 189, 207, 171, 183});
}

TEST(OpsConvPool, ConvAutoPad) {
  Tensor x = iota(DType::f32, {1, 1, 5, 5});
  Tensor w = ones({1, 1, 3, 3});
  Attrs attrs{{"auto_pad", std::string("SAME_LOWER")}, {"strides", std::vector<int64_t>{2, 2}}};
  expect_close(run_op("conv", {x, w}, attrs), {1, 1, 3, 3}, {12, 27, 24, 63, 108, 81, 72, 117, 84});
  // An even total padding of 2 splits the same way for UPPER and LOWER ...
  attrs["auto_pad"] = std::string("SAME_UPPER");
  expect_close(run_op("conv", {x, w}, attrs), {1, 1, 3, 3}, {12, 27, 24, 63, 108, 81, 72, 117, 84});
  // ... an odd one (kernel 2, stride 1: total 1) goes to the end for UPPER, the start for LOWER.
  Tensor w2 = ones({1, 1, 2, 2});
  Tensor x2 = iota(DType::f32, {1, 1, 2, 2});
  expect_close(run_op("conv", {x2, w2}, {{"auto_pad", std::string("SAME_UPPER")}}), {1, 1, 2, 2},
               {6, 4, 5, 3});
  expect_close(run_op("conv", {x2, w2}, {{"auto_pad", std::string("SAME_LOWER")}}), {1, 1, 2, 2},
               {0, 1, 2, 6});
  expect_close(run_op("conv", {x, w}, {{"auto_pad", std::string("VALID")}}), {1, 1, 3, 3},
               {54, 63, 72, 99, 108, 117, 144, 153, 162});
}

// A direct transcription of the convolution definition, over any number of spatial axes.
std::vector<double> naive_conv(const Tensor& x, const Tensor& w, int64_t group,
                               const std::vector<int64_t>& strides,
                               const std::vector<int64_t>& pads, const std::vector<int64_t>& dil,
                               Shape& out_shape) {
  size_t n = x.shape().size() - 2;
  int64_t N = x.shape()[0], C = x.shape()[1], M = w.shape()[0], cg = C / group, mg = M / group;
  out_shape = {N, M};
  for (size_t i = 0; i < n; ++i) {
    int64_t span = (w.shape()[2 + i] - 1) * dil[i] + 1;
    out_shape.push_back((x.shape()[2 + i] + pads[i] + pads[n + i] - span) / strides[i] + 1);
  }
  std::vector<int64_t> xs = strides_of(x.shape()), ws = strides_of(w.shape());
  Shape out_sp(out_shape.begin() + 2, out_shape.end()),
      k_sp(w.shape().begin() + 2, w.shape().end());
  std::vector<double> y;
  std::vector<int64_t> o_idx, k_idx;
  for (int64_t b = 0; b < N; ++b)
    for (int64_t m = 0; m < M; ++m)
      for (int64_t o = 0; o < numel(out_sp); ++o) {
        unravel(o, out_sp, o_idx);
        double acc = 0;
        for (int64_t c = 0; c < cg; ++c)
          for (int64_t k = 0; k < numel(k_sp); ++k) {
            unravel(k, k_sp, k_idx);
            int64_t xoff = b * xs[0] + ((m / mg) * cg + c) * xs[1];
            int64_t woff = m * ws[0] + c * ws[1];
            bool inside = true;
            for (size_t i = 0; i < n; ++i) {
              int64_t pos = o_idx[i] * strides[i] - pads[i] + k_idx[i] * dil[i];
              inside = inside && pos >= 0 && pos < x.shape()[2 + i];
              xoff += pos * xs[2 + i];
              woff += k_idx[i] * ws[2 + i];
            }
            if (inside) acc += x.get(xoff) * w.get(woff);
          }
        y.push_back(acc);
      }
  return y;
}

struct ConvCase {
  Shape x, w;
  int64_t group;
  std::vector<int64_t> strides, pads, dilations;
};

TEST(OpsConvPool, ConvMatchesNaiveLoop) {
  std::vector<ConvCase> cases = {
      {{2, 4, 9}, {6, 2, 3}, 2, {2}, {1, 2}, {2}},
      {{1, 4, 7, 6}, {4, 1, 3, 2}, 4, {1, 2}, {2, 0, 1, 1}, {2, 1}},
      {{1, 6, 8, 7}, {3, 2, 2, 3}, 3, {3, 2}, {0, 1, 2, 0}, {1, 2}},
      {{1, 2, 4, 5, 3}, {4, 2, 2, 3, 2}, 1, {1, 2, 1}, {1, 0, 1, 0, 1, 1}, {1, 1, 2}},
  };
  Rng rng(11);
  for (const auto& c : cases) {
    Tensor x = random_tensor({DType::f64, c.x}, rng);
    Tensor w = random_tensor({DType::f64, c.w}, rng);
    Shape want_shape;
    std::vector<double> want =
        naive_conv(x, w, c.group, c.strides, c.pads, c.dilations, want_shape);
    Attrs attrs{
        {"group", c.group}, {"strides", c.strides}, {"pads", c.pads}, {"dilations", c.dilations}};
    Tensor y = run_op("conv", {x, w}, attrs);
    ASSERT_EQ(y.shape(), want_shape) << shape_str(c.x);
    for (int64_t i = 0; i < y.numel(); ++i) EXPECT_NEAR(y.get(i), want[i], 1e-12);
  }
}

TEST(OpsConvPool, ConvInferenceErrors) {
  TensorType x{DType::f32, {1, 4, 5, 5}};
  std::string msg = infer_error("conv", {x, {DType::f32, {2, 3, 3, 3}}});
  EXPECT_NE(msg.find("group"), std::string::npos) << msg;
  msg = infer_error("conv", {x, {DType::f32, {3, 2, 3, 3}}}, {{"group", int64_t{2}}});
  EXPECT_NE(msg.find("split evenly"), std::string::npos) << msg;
  msg = infer_error("conv", {x, {DType::f32, {2, 4, 7, 3}}});
  EXPECT_NE(msg.find("does not fit"), std::string::npos) << msg;
  msg =
      infer_error("conv", {x, {DType::f32, {2, 4, 3, 3}}}, {{"strides", std::vector<int64_t>{1}}});
  EXPECT_NE(msg.find("strides"), std::string::npos) << msg;
  msg = infer_error("conv", {x, {DType::f32, {2, 4, 3, 3}}, {DType::f32, {3}}});
  EXPECT_NE(msg.find("bias"), std::string::npos) << msg;
  msg = infer_error("conv", {x, {DType::f32, {2, 4, 3, 3}}}, {{"auto_pad", std::string("SAME")}});
  EXPECT_NE(msg.find("auto_pad"), std::string::npos) << msg;
  msg = infer_error("conv", {{DType::i32, {1, 4, 5, 5}}, {DType::i32, {2, 4, 3, 3}}});
  EXPECT_NE(msg.find("i32"), std::string::npos) << msg;
  msg = infer_error("conv", {x, {DType::f32, {2, 4, 3, 3}}},
                    {{"pads", std::vector<int64_t>{INT64_MAX, 0, INT64_MAX, 0}}});
  EXPECT_NE(msg.find("overflow"), std::string::npos) << msg;
  msg = infer_error("conv", {x, {DType::f32, {2, 4, 3, 3}}},
                    {{"dilations", std::vector<int64_t>{INT64_MAX, 1}}});
  EXPECT_NE(msg.find("overflow"), std::string::npos) << msg;
  msg = infer_error("conv", {x, {DType::f32, {2, 4, 3, 3}}},
                    {{"kernel_shape", std::vector<int64_t>{2, 2}}});
  EXPECT_NE(msg.find("kernel_shape"), std::string::npos) << msg;
}

TEST(OpsConvPool, ConvBatchesAndChannels) {
  // Two images, two input channels, two filters: sums over channels, per image.
  Tensor x = f32({2, 2, 1, 1}, {1, 2, 3, 4});
  Tensor w = f32({2, 2, 1, 1}, {1, 10, -1, 1});
  expect_close(run_op("conv", {x, w}), {2, 2, 1, 1}, {21, 1, 43, 1});
}

// --- pools ---------------------------------------------------------------------------------

Attrs kernel(std::vector<int64_t> k) {
  return {{"kernel_shape", std::move(k)}};
}

TEST(OpsConvPool, MaxPoolBasics) {
  Tensor x = iota(DType::f32, {1, 1, 4, 4});
  Attrs a = kernel({2, 2});
  a["strides"] = std::vector<int64_t>{2, 2};
  expect_close(run_op("max_pool", {x}, a), {1, 1, 2, 2}, {5, 7, 13, 15});
  // ceil_mode keeps the partial last window.
  a = kernel({3, 3});
  a["strides"] = std::vector<int64_t>{2, 2};
  a["ceil_mode"] = int64_t{1};
  expect_close(run_op("max_pool", {x}, a), {1, 1, 2, 2}, {10, 11, 14, 15});
  a["ceil_mode"] = int64_t{0};
  expect_close(run_op("max_pool", {x}, a), {1, 1, 1, 1}, {10});
  // Dilations 2: the taps of the window at 0 are rows/cols 0 and 2.
  a = kernel({2, 2});
  a["dilations"] = std::vector<int64_t>{2, 2};
  expect_close(run_op("max_pool", {x}, a), {1, 1, 2, 2}, {10, 11, 14, 15});
  // Padding never wins, even against negative values.
  Tensor neg = f32({1, 1, 1, 2}, {-5, -7});
  a = kernel({1, 2});
  a["pads"] = std::vector<int64_t>{0, 1, 0, 1};
  expect_close(run_op("max_pool", {neg}, a), {1, 1, 1, 3}, {-5, -5, -7});
}

TEST(OpsConvPool, MaxPoolNanAndIntegers) {
  Tensor x = f32({1, 1, 4}, {1, NAN, 3, 2});
  expect_close(run_op("max_pool", {x}, kernel({2})), {1, 1, 3}, {NAN, NAN, 3});
  Tensor u = Tensor::from_ints(DType::u8, {1, 1, 3}, {200, 255, 3});
  Tensor y = run_op("max_pool", {u}, kernel({2}));
  EXPECT_EQ(y.dtype(), DType::u8);
  expect_ints(y, {255, 255});
  std::string msg = infer_error("max_pool", {{DType::i32, {1, 1, 3}}}, kernel({2}));
  EXPECT_NE(msg.find("i32"), std::string::npos) << msg;
  msg = infer_error("max_pool", {{DType::f32, {1, 1, 3}}});
  EXPECT_NE(msg.find("kernel_shape"), std::string::npos) << msg;
}

TEST(OpsConvPool, MaxPoolSameUpperAnd3d) {
  Tensor x = iota(DType::f32, {1, 1, 3, 3});
  Attrs a = kernel({2, 2});
  a["auto_pad"] = std::string("SAME_UPPER");
  expect_close(run_op("max_pool", {x}, a), {1, 1, 3, 3}, {4, 5, 5, 7, 8, 8, 7, 8, 8});
  a["auto_pad"] = std::string("SAME_LOWER");
  expect_close(run_op("max_pool", {x}, a), {1, 1, 3, 3}, {0, 1, 2, 3, 4, 5, 6, 7, 8});
  Tensor cube = iota(DType::f32, {1, 1, 2, 2, 2});
  expect_close(run_op("max_pool", {cube}, kernel({2, 2, 2})), {1, 1, 1, 1, 1}, {7});
}

TEST(OpsConvPool, AveragePoolPadsAndCount) {
  Tensor x = f32({1, 1, 2, 2}, {1, 2, 3, 4});
  Attrs a = kernel({2, 2});
  a["pads"] = std::vector<int64_t>{1, 1, 1, 1};
  a["strides"] = std::vector<int64_t>{2, 2};
  // Each window holds one element; excluding padding divides by 1, including it by 4.
  expect_close(run_op("average_pool", {x}, a), {1, 1, 2, 2}, {1, 2, 3, 4});
  a["count_include_pad"] = int64_t{1};
  expect_close(run_op("average_pool", {x}, a), {1, 1, 2, 2}, {0.25, 0.5, 0.75, 1});
  a = kernel({2, 2});
  expect_close(run_op("average_pool", {x}, a), {1, 1, 1, 1}, {2.5});
}

TEST(OpsConvPool, AveragePoolCeilModeDividesByTheClippedWindow) {
  Tensor x = iota(DType::f32, {1, 1, 4, 4});
  Attrs a = kernel({3, 3});
  a["strides"] = std::vector<int64_t>{2, 2};
  a["ceil_mode"] = int64_t{1};
  // Windows at 2 cover rows/cols 2..3 only: (10+11+14+15)/4 = 12.5.
  expect_close(run_op("average_pool", {x}, a), {1, 1, 2, 2}, {5, 6.5, 11, 12.5});
  a["count_include_pad"] = int64_t{1};  // no padding: the part past the input still does not count
  expect_close(run_op("average_pool", {x}, a), {1, 1, 2, 2}, {5, 6.5, 11, 12.5});
  // 1-D, with SAME_UPPER padding at the end excluded from the divisor.
  Tensor v = f32({1, 1, 3}, {1, 2, 4});
  Attrs s = kernel({2});
  s["auto_pad"] = std::string("SAME_UPPER");
  expect_close(run_op("average_pool", {v}, s), {1, 1, 3}, {1.5, 3, 4});
}

TEST(OpsConvPool, GlobalPools) {
  Tensor x = iota(DType::f32, {1, 2, 2, 2});
  expect_close(run_op("global_average_pool", {x}), {1, 2, 1, 1}, {1.5, 5.5});
  expect_close(run_op("global_max_pool", {x}), {1, 2, 1, 1}, {3, 7});
  Tensor v = f32({1, 1, 3}, {1, NAN, 2});
  expect_close(run_op("global_max_pool", {v}), {1, 1, 1}, {NAN});
  std::string msg = infer_error("global_average_pool", {{DType::f32, {2, 3}}});
  EXPECT_NE(msg.find("rank"), std::string::npos) << msg;
}

TEST(OpsConvPool, WindowGeometry) {
  Attrs a{{"strides", std::vector<int64_t>{2}}, {"ceil_mode", int64_t{1}}};
  // 5 elements, kernel 2, stride 2: floor gives 2 windows, ceil 3 (the last one starts at 4).
  EXPECT_EQ(resolve_window({5}, {2}, a).out, (std::vector<int64_t>{3}));
  // 4 elements and padding 1 at the end: ceil would start a 3rd window at 4, in the padding
  // past the input, so it is dropped.
  a["pads"] = std::vector<int64_t>{0, 1};
  EXPECT_EQ(resolve_window({4}, {2}, a).out, (std::vector<int64_t>{2}));
  Window w = resolve_window({4}, {3}, {{"auto_pad", std::string("SAME_LOWER")}});
  EXPECT_EQ(w.pad_begin, (std::vector<int64_t>{1}));
  EXPECT_EQ(w.pad_end, (std::vector<int64_t>{1}));
  Window l = w.lifted_to(3);
  EXPECT_EQ(l.in, (std::vector<int64_t>{1, 1, 4}));
  EXPECT_EQ(l.pad_begin, (std::vector<int64_t>{0, 0, 1}));
}

// x = [1, 2, 3] and w = [1, 10]: input i writes w's two taps at i * stride + t * dilation.
TEST(OpsConvPool, ConvTransposeStridesPadsDilationsOutputPadding) {
  using Ints = std::vector<int64_t>;
  Tensor x = f32({1, 1, 3}, {1, 2, 3});
  Tensor w = f32({1, 1, 2}, {1, 10});
  expect_close(run_op("conv_transpose", {x, w}), {1, 1, 4}, {1, 12, 23, 30});
  expect_close(run_op("conv_transpose", {x, w}, {{"strides", Ints{2}}}), {1, 1, 6},
               {1, 10, 2, 20, 3, 30});
  expect_close(run_op("conv_transpose", {x, w}, {{"pads", Ints{1, 0}}}), {1, 1, 3}, {12, 23, 30});
  expect_close(run_op("conv_transpose", {x, w}, {{"dilations", Ints{2}}}), {1, 1, 5},
               {1, 2, 13, 20, 30});
  Tensor b = f32({1}, {0.5});
  expect_close(run_op("conv_transpose", {x, w, b},
                      {{"strides", Ints{2}}, {"output_padding", Ints{1}}, {"pads", Ints{0, 2}}}),
               {1, 1, 5}, {1.5, 10.5, 2.5, 20.5, 3.5});
}

// w [C=2, M/group=1, 1]: group 2 keeps the channels apart, group 1 sums them into one.
TEST(OpsConvPool, ConvTransposeGroups) {
  Tensor x = f32({1, 2, 2}, {1, 2, 3, 4});
  Tensor w = f32({2, 1, 1}, {2, 5});
  expect_close(run_op("conv_transpose", {x, w}, {{"group", int64_t{2}}}), {1, 2, 2},
               {2, 4, 15, 20});
  expect_close(run_op("conv_transpose", {x, w}), {1, 1, 2}, {17, 24});
  // 2-D: one pixel through a 2x2 kernel at stride 2 is the kernel itself.
  Tensor p = f32({1, 1, 1, 1}, {3});
  Tensor k = f32({1, 1, 2, 2}, {1, 2, 3, 4});
  expect_close(run_op("conv_transpose", {p, k}, {{"strides", std::vector<int64_t>{2, 2}}}),
               {1, 1, 2, 2}, {3, 6, 9, 12});
}

TEST(OpsConvPool, ConvTransposeErrors) {
  TensorType x{DType::f32, {1, 2, 3}};
  std::string msg = infer_error("conv_transpose", {x, {DType::f32, {3, 1, 2}}});
  EXPECT_NE(msg.find("w.shape[0]"), std::string::npos) << msg;
  msg = infer_error("conv_transpose", {x, {DType::f32, {2, 1, 2}}},
                    {{"output_padding", std::vector<int64_t>{1}}});
  EXPECT_NE(msg.find("below its stride"), std::string::npos) << msg;
  msg = infer_error("conv_transpose", {x, {DType::f32, {2, 1, 2}}, {DType::f32, {2}}});
  EXPECT_NE(msg.find("bias 'b' must be f32[1]"), std::string::npos) << msg;
  msg = infer_error("conv_transpose", {x, {DType::f32, {2, 1, 1}}},
                    {{"pads", std::vector<int64_t>{2, 1}}});
  EXPECT_NE(msg.find("empty"), std::string::npos) << msg;
  EXPECT_EQ(infer_op("conv_transpose", {x, {DType::f32, {2, 3, 2}}}, {{"group", int64_t{2}}}),
            (TensorType{DType::f32, {1, 6, 4}}));
}

}  // namespace
}  // namespace retort
