// The generator draws only padding the ONNX spec defines (core/gen/attr_choice.cpp).
#include "core/gen/attr_choice.h"

#include <string>

#include <gtest/gtest.h>

#include "core/ops/conv_geometry.h"
#include "core/ops/registry.h"

namespace retort {
namespace {

std::string mode_of(const Attrs& a, const char* name, const char* absent) {
  return has_attr(a, name) ? attr_string(a, name) : absent;
}

// What ONNX leaves undefined about a window, or empty.
std::string undefined_window(const Attrs& a, const Shape& x, bool pool) {
  std::string auto_pad = mode_of(a, "auto_pad", "NOTSET");
  if (auto_pad != "NOTSET" && has_attr(a, "pads")) return "pads beside auto_pad";
  const auto& kernel = attr_ints(a, "kernel_shape");
  size_t n = kernel.size();
  std::vector<int64_t> strides =
      has_attr(a, "strides") ? attr_ints(a, "strides") : std::vector<int64_t>(n, 1);
  std::vector<int64_t> dilations =
      has_attr(a, "dilations") ? attr_ints(a, "dilations") : std::vector<int64_t>(n, 1);
  bool padded = auto_pad != "NOTSET";
  for (size_t i = 0; i < n; ++i) {
    int64_t in = x[i + 2], s = strides[i], span = (kernel[i] - 1) * dilations[i] + 1;
    if (auto_pad.rfind("SAME", 0) == 0 && ((in + s - 1) / s - 1) * s + span < in)
      return "SAME padding below zero";
  }
  if (has_attr(a, "pads")) {
    const auto& pads = attr_ints(a, "pads");
    for (size_t i = 0; i < pads.size(); ++i) {
      padded |= pads[i] != 0;
      if (pool && pads[i] >= kernel[i % n]) return "a pool's pad as wide as its kernel";
    }
  }
  if (padded && has_attr(a, "ceil_mode") && attr_int(a, "ceil_mode") != 0)
    return "ceil_mode with padding";
  return {};
}

TEST(AttrChoice, WindowsHaveOnlyThePaddingOnnxDefines) {
  const OpRegistry& reg = OpRegistry::instance();
  GenOptions options;
  size_t drawn = 0, same = 0, padded = 0;
  for (const char* name : {"max_pool", "average_pool", "conv"}) {
    const OpDef& op = reg.get(name);
    bool pool = std::string(name) != "conv";
    for (uint64_t seed = 1; seed <= 400; ++seed) {
      Rng rng(seed);
      Shape x{1, 2, 1 + static_cast<int64_t>(seed % 5), 2 + static_cast<int64_t>(seed % 3)};
      std::vector<TensorType> inputs{{DType::f32, x}};
      NodeContext ctx{op, inputs, 1, options};
      if (!pool) inputs.push_back(*structured_operand_type(ctx, 1, rng));
      Attrs a = choose_attrs(ctx, rng);
      ++drawn;
      same += mode_of(a, "auto_pad", "NOTSET").rfind("SAME", 0) == 0;
      padded += has_attr(a, "pads");
      EXPECT_EQ(undefined_window(a, x, pool), "") << name << " seed " << seed;
    }
  }
  EXPECT_EQ(drawn, 1200u);
  EXPECT_GT(same, 200u);  // the choices are still drawn, only their undefined corners are not
  EXPECT_GT(padded, 200u);
}

TEST(AttrChoice, ReflectPaddingMirrorsTheAxisOnce) {
  const OpDef& op = OpRegistry::instance().get("pad");
  GenOptions options;
  size_t reflect = 0;
  for (uint64_t seed = 1; seed <= 400; ++seed) {
    Rng rng(seed);
    Shape x{1 + static_cast<int64_t>(seed % 3), 2};
    std::vector<TensorType> inputs{{DType::f32, x}};
    NodeContext ctx{op, inputs, 1, options};
    Attrs a = choose_attrs(ctx, rng);
    std::string mode = mode_of(a, "mode", "constant");
    if (mode == "constant") continue;
    reflect += mode == "reflect";
    const auto& pads = attr_ints(a, "pads");
    for (size_t i = 0; i < pads.size(); ++i) {
      EXPECT_GE(pads[i], 0) << mode << " seed " << seed;
      if (mode == "reflect") {
        EXPECT_LT(pads[i], x[i % 2]) << "seed " << seed;
      }
    }
  }
  EXPECT_GT(reflect, 30u);
}

}  // namespace
}  // namespace retort
