// ResNet-18 and MobileNetV2 as Retort graphs, for the interpreter benchmarks (docs/benchmarks.md):
// the torchvision architectures as ONNX exports them in eval mode (batch norm folded into the
// convolutions' weights and bias), with seeded random weights instead of trained ones, over one
// f32[1,3,H,W] image.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/base/rng.h"
#include "core/graph/graph.h"
#include "core/tensor/random_tensor.h"

namespace retort::testing {

class VisionModelBuilder {
 public:
  VisionModelBuilder(std::string name, int64_t hw, uint64_t seed) : rng_(seed) {
    g_.name = std::move(name);
    g_.inputs.push_back({"image", {DType::f32, {1, 3, hw, hw}}});
  }

  // A convolution with a bias (the folded batch norm), He-scaled weights so activations stay
  // in range through the network.
  std::string conv(const std::string& x, int64_t c_in, int64_t c_out, int64_t k, int64_t stride,
                   int64_t group = 1) {
    int64_t fan_in = c_in / group * k * k;
    double scale = 1.7 / std::sqrt(static_cast<double>(fan_in));
    std::string w = constant({c_out, c_in / group, k, k}, -scale, scale);
    std::string b = constant({c_out}, -0.1, 0.1);
    int64_t pad = k / 2;
    return node("conv", {x, w, b},
                {{"group", group},
                 {"kernel_shape", std::vector<int64_t>{k, k}},
                 {"strides", std::vector<int64_t>{stride, stride}},
                 {"pads", std::vector<int64_t>{pad, pad, pad, pad}}});
  }
  std::string relu(const std::string& x) { return node("relu", {x}, {}); }
  std::string relu6(const std::string& x) {
    return node("clip", {x}, {{"min", 0.0}, {"max", 6.0}});
  }
  std::string add(const std::string& a, const std::string& b) { return node("add", {a, b}, {}); }
  std::string max_pool(const std::string& x) {
    return node("max_pool", {x},
                {{"kernel_shape", std::vector<int64_t>{3, 3}},
                 {"strides", std::vector<int64_t>{2, 2}},
                 {"pads", std::vector<int64_t>{1, 1, 1, 1}}});
  }
  // Global average pool, flatten and the fully connected classifier.
  std::string classifier(const std::string& x, int64_t channels, int64_t classes) {
    std::string pooled = node("global_average_pool", {x}, {});
    std::string flat = node("flatten", {pooled}, {{"axis", int64_t{1}}});
    double scale = 1.0 / std::sqrt(static_cast<double>(channels));
    std::string w = constant({classes, channels}, -scale, scale);
    std::string b = constant({classes}, -0.1, 0.1);
    return node("gemm", {flat, w, b}, {{"transB", int64_t{1}}});
  }

  Graph finish(const std::string& output) {
    g_.outputs.push_back(output);
    infer_graph(g_);
    return std::move(g_);
  }

 private:
  std::string constant(Shape shape, double lo, double hi) {
    std::string name = fmt::format("w{}", g_.constants.size());
    g_.constants.push_back(
        {name, random_tensor_in({DType::f32, std::move(shape)}, rng_, lo, hi), ""});
    return name;
  }
  std::string node(const std::string& op, std::vector<std::string> inputs, Attrs attrs) {
    Node n;
    n.name = fmt::format("{}_{}", op, g_.nodes.size());
    n.op = op;
    n.inputs = std::move(inputs);
    n.attrs = std::move(attrs);
    n.outputs.push_back(fmt::format("v{}", g_.nodes.size()));
    g_.nodes.push_back(std::move(n));
    return g_.nodes.back().outputs[0];
  }

  Graph g_;
  Rng rng_;
};

// torchvision's resnet18: a 7x7 stem, max pool, four stages of two basic blocks (64, 128, 256,
// 512 channels; the first block of stages 2-4 strides by 2 with a 1x1 projection), classifier.
inline Graph resnet18_graph(int64_t hw, uint64_t seed, int64_t classes = 1000) {
  VisionModelBuilder b(fmt::format("resnet18_{}", hw), hw, seed);
  std::string x = b.max_pool(b.relu(b.conv("image", 3, 64, 7, 2)));
  int64_t channels = 64;
  for (int64_t width : {64, 128, 256, 512}) {
    for (int block = 0; block < 2; ++block) {
      int64_t stride = block == 0 && width != 64 ? 2 : 1;
      std::string y = b.relu(b.conv(x, channels, width, 3, stride));
      y = b.conv(y, width, width, 3, 1);
      std::string skip =
          stride == 1 && channels == width ? x : b.conv(x, channels, width, 1, stride);
      x = b.relu(b.add(y, skip));
      channels = width;
    }
  }
  return b.finish(b.classifier(x, channels, classes));
}

// torchvision's mobilenet_v2 (width 1.0): inverted residual blocks of 1x1 expansion, 3x3
// depthwise and 1x1 projection convolutions with relu6, the residual added where shapes allow.
inline Graph mobilenet_v2_graph(int64_t hw, uint64_t seed, int64_t classes = 1000) {
  VisionModelBuilder b(fmt::format("mobilenet_v2_{}", hw), hw, seed);
  std::string x = b.relu6(b.conv("image", 3, 32, 3, 2));
  int64_t channels = 32;
  struct Stage {
    int64_t expand, width, repeat, stride;
  };
  for (Stage s : {Stage{1, 16, 1, 1}, Stage{6, 24, 2, 2}, Stage{6, 32, 3, 2}, Stage{6, 64, 4, 2},
                  Stage{6, 96, 3, 1}, Stage{6, 160, 3, 2}, Stage{6, 320, 1, 1}}) {
    for (int64_t i = 0; i < s.repeat; ++i) {
      int64_t stride = i == 0 ? s.stride : 1;
      int64_t hidden = channels * s.expand;
      std::string y = s.expand == 1 ? x : b.relu6(b.conv(x, channels, hidden, 1, 1));
      y = b.relu6(b.conv(y, hidden, hidden, 3, stride, hidden));
      y = b.conv(y, hidden, s.width, 1, 1);
      x = stride == 1 && channels == s.width ? b.add(x, y) : y;
      channels = s.width;
    }
  }
  x = b.relu6(b.conv(x, channels, 1280, 1, 1));
  return b.finish(b.classifier(x, 1280, classes));
}

}  // namespace retort::testing
