// The registry ops exported as calls of functions (core/ops/onnx_function.h), and their bodies.
#include "core/ops/onnx_function.h"

namespace retort {

namespace {

// GroupNormalization-21 in ops of opset 17, as ONNX's own function body: x as [N, G, -1], each
// group normalized by its mean and biased variance, back as [N, C, -1], * scale[c] + b[c], back
// to x's shape. The statistics are in x's dtype here (ONNX's stash_type 1 reads f16 in f32).
OnnxFunction group_norm_body() {
  using Ints = std::vector<int64_t>;
  auto node = [](std::string op, std::vector<std::string> in, std::string out, Attrs attrs = {},
                 std::map<std::string, std::string> refs = {}) {
    return OnnxBodyNode{
        std::move(op), std::move(in), {std::move(out)}, std::move(attrs), std::move(refs)};
  };
  return {{
              node("Constant", {}, "groups", {}, {{"value_int", "num_groups"}}),
              node("Constant", {}, "zero", {{"value_ints", Ints{0}}}),
              node("Constant", {}, "one", {{"value_ints", Ints{1}}}),
              node("Constant", {}, "rest", {{"value_ints", Ints{-1}}}),
              node("Unsqueeze", {"groups", "zero"}, "groups_1d"),
              node("Concat", {"zero", "groups_1d", "rest"}, "grouped_shape", {{"axis", 0}}),
              node("Reshape", {"x", "grouped_shape"}, "grouped"),
              node("ReduceMean", {"grouped"}, "mean", {{"axes", Ints{2}}}),
              node("Sub", {"grouped", "mean"}, "centered"),
              node("Mul", {"centered", "centered"}, "squares"),
              node("ReduceMean", {"squares"}, "var", {{"axes", Ints{2}}}),
              node("Constant", {}, "epsilon_f32", {}, {{"value_float", "epsilon"}}),
              node("CastLike", {"epsilon_f32", "x"}, "eps"),
              node("Add", {"var", "eps"}, "var_eps"),
              node("Sqrt", {"var_eps"}, "deviation"),
              node("Div", {"centered", "deviation"}, "normalized"),
              node("Shape", {"x"}, "batch_channels", {{"end", 2}}),
              node("Concat", {"batch_channels", "rest"}, "channels_shape", {{"axis", 0}}),
              node("Reshape", {"normalized", "channels_shape"}, "per_channel"),
              node("Unsqueeze", {"scale", "one"}, "scale_c"),
              node("Unsqueeze", {"b", "one"}, "b_c"),
              node("Mul", {"per_channel", "scale_c"}, "scaled"),
              node("Add", {"scaled", "b_c"}, "shifted"),
              node("Shape", {"x"}, "x_shape"),
              node("Reshape", {"shifted", "x_shape"}, "y"),
          },
          {"y"}};
}

}  // namespace

const OnnxFunction* onnx_function(std::string_view op) {
  static const std::map<std::string, OnnxFunction, std::less<>> functions = {
      {"group_norm", group_norm_body()},
  };
  auto it = functions.find(op);
  return it == functions.end() ? nullptr : &it->second;
}

}  // namespace retort
