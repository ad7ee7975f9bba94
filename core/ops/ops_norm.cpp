// Normalisations: batch_norm (inference mode), layer_norm, instance_norm, group_norm, softmax
// and log_softmax.
#include <cmath>
#include <functional>

#include "core/base/error.h"
#include "core/ops/element_values.h"
#include "core/ops/index_space.h"
#include "core/ops/infer_rules.h"
#include "core/ops/onnx_float_attr.h"
#include "core/ops/registry.h"

namespace retort {

namespace {

constexpr std::initializer_list<DType> kFloatTypes = {DType::f16, DType::f32, DType::f64};

// --- batch_norm ----------------------------------------------------------------------------

std::vector<TensorType> infer_batch_norm(const std::vector<TensorType>& in, const Attrs& attrs,
                                         size_t) {
  if (attr_int(attrs, "training_mode") != 0)
    fail("batch_norm supports inference mode only (training_mode=0)");
  const TensorType& x = in[0];
  require_dtype(x, kFloatTypes, "batch_norm input 'x'");
  require_rank(x, 2, static_cast<int64_t>(kMaxRank), "batch_norm input 'x'");
  static const char* names[] = {"x", "scale", "b", "input_mean", "input_var"};
  for (size_t i = 1; i < 5; ++i) {
    require_dtype(in[i], kFloatTypes, fmt::format("batch_norm input '{}'", names[i]));
    if (in[i].shape != Shape{x.shape[1]})
      fail("batch_norm input '{}' must have shape [{}] (the channels of x {}), got {}", names[i],
           x.shape[1], x.str(), in[i].str());
  }
  // ONNX lets scale/b and mean/var each pick a float type, but pairwise the same.
  if (in[2].dtype != in[1].dtype)
    fail("batch_norm inputs 'scale' and 'b' must share one dtype, got {} and {}", in[1].str(),
         in[2].str());
  if (in[4].dtype != in[3].dtype)
    fail("batch_norm inputs 'input_mean' and 'input_var' must share one dtype, got {} and {}",
         in[3].str(), in[4].str());
  return {x};
}

std::vector<Tensor> kernel_batch_norm(const std::vector<const Tensor*>& in, const Attrs& attrs,
                                      const std::vector<TensorType>& out) {
  std::vector<double> x = read_doubles(*in[0]), scale = read_doubles(*in[1]),
                      bias = read_doubles(*in[2]), mean = read_doubles(*in[3]),
                      var = read_doubles(*in[4]);
  double eps = onnx_float_attr(attrs, "epsilon");
  const Shape& s = in[0]->shape();
  int64_t channels = s[1];
  int64_t inner = numel(Shape(s.begin() + 2, s.end()));
  std::vector<double> y(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    int64_t c = (static_cast<int64_t>(i) / inner) % channels;  // x is not empty here
    y[i] = (x[i] - mean[c]) / std::sqrt(var[c] + eps) * scale[c] + bias[c];
  }
  return {tensor_from(out[0], y)};
}

OpDef batch_norm_op() {
  OpDef op;
  op.name = "batch_norm";
  op.doc =
      "Inference-mode batch normalisation over axis 1: "
      "(x - input_mean) / sqrt(input_var + epsilon) * scale + b.";
  op.input_names = {"x", "scale", "b", "input_mean", "input_var"};
  op.min_inputs = op.max_inputs = 5;
  // ONNX float attributes are float32: the defaults are the f32 values, so that they survive an
  // ONNX round trip unchanged.
  op.attrs = {
      {"epsilon", AttrKind::Float, AttrValue{double{1e-5f}}, false, "added to the variance"},
      {"momentum", AttrKind::Float, AttrValue{double{0.9f}}, false,
       "training only; no effect here"},
      {"training_mode", AttrKind::Int, AttrValue{int64_t{0}}, false,
       "must be 0: only inference mode is supported"},
  };
  op.infer = infer_batch_norm;
  op.kernel = kernel_batch_norm;
  op.onnx = {"BatchNormalization", 9, {}};
  op.input_domains = {ValueDomain::Any, ValueDomain::Any, ValueDomain::Any, ValueDomain::Any,
                      ValueDomain::NonNegative};
  op.tags = {"norm"};
  return op;
}

// --- layer_norm and instance_norm ------------------------------------------------------------

// x in consecutive blocks of `block` elements, each made (v - mean) / sqrt(var + eps) with the
// block's own mean and (biased) variance, in double and in two passes, as the ONNX functions
// define them; then y = that * scale[c] + bias[c] for the element's parameter index c.
std::vector<double> normalize_blocks(const std::vector<double>& x, int64_t block, double eps,
                                     const std::function<int64_t(int64_t)>& param_of,
                                     const std::vector<double>& scale,
                                     const std::vector<double>& bias) {
  std::vector<double> y(x.size());
  for (size_t start = 0; start < x.size(); start += static_cast<size_t>(block)) {
    double mean = 0.0, var = 0.0;
    for (int64_t k = 0; k < block; ++k) mean += x[start + k];
    mean /= static_cast<double>(block);
    for (int64_t k = 0; k < block; ++k) var += (x[start + k] - mean) * (x[start + k] - mean);
    var /= static_cast<double>(block);
    double inv = 1.0 / std::sqrt(var + eps);
    for (int64_t k = 0; k < block; ++k) {
      int64_t i = static_cast<int64_t>(start) + k;
      int64_t c = param_of(i);
      y[i] = (x[i] - mean) * inv * scale[c] + (bias.empty() ? 0.0 : bias[c]);
    }
  }
  return y;
}

AttrSpec epsilon_attr() {
  // A float32 default, so that it survives an ONNX round trip unchanged.
  return {"epsilon", AttrKind::Float, AttrValue{double{1e-5f}}, false, "added to the variance"};
}

// ONNX computes the statistics in stash_type; 1 (float32) is the only type runtimes implement.
AttrSpec stash_type_attr() {
  return {"stash_type", AttrKind::Int, AttrValue{int64_t{1}}, false,
          "the statistics' ONNX dtype code; must be 1 (float32, or the input's wider type)"};
}

int64_t layer_norm_axis(const std::vector<TensorType>& in, const Attrs& attrs) {
  const TensorType& x = in[0];
  require_dtype(x, kFloatTypes, "layer_norm input 'x'");
  if (attr_int(attrs, "stash_type") != 1)
    fail("layer_norm supports stash_type 1 (float32) only, got {}", attr_int(attrs, "stash_type"));
  int64_t axis = attr_axis(attrs, x.shape, "x");
  Shape normalized(x.shape.begin() + axis, x.shape.end());
  static const char* names[] = {"x", "scale", "b"};
  for (size_t i = 1; i < in.size(); ++i) {
    if (in[i].dtype != x.dtype)
      fail("layer_norm input '{}' must be {} like x, got {}", names[i], dtype_name(x.dtype),
           in[i].str());
    if (in[i].shape != normalized)
      fail("layer_norm input '{}' must have the normalized shape {} (x {} from axis {}), got {}",
           names[i], TensorType{x.dtype, normalized}.str(), x.str(), axis, in[i].str());
  }
  return axis;
}

OpDef layer_norm_op() {
  OpDef op;
  op.name = "layer_norm";
  op.doc =
      "Layer normalisation over the axes from `axis` on: (x - mean) / sqrt(var + epsilon) * "
      "scale + b, scale and b of the normalized shape; output Y only.";
  op.input_names = {"x", "scale", "b"};
  op.min_inputs = 2;
  op.max_inputs = 3;
  op.attrs = {axis_attr(-1, "the first normalized axis"), epsilon_attr(), stash_type_attr()};
  op.infer = [](const std::vector<TensorType>& in, const Attrs& attrs, size_t) {
    layer_norm_axis(in, attrs);
    return std::vector<TensorType>{in[0]};
  };
  op.kernel = [](const std::vector<const Tensor*>& in, const Attrs& attrs,
                 const std::vector<TensorType>& out) {
    std::vector<TensorType> types = types_of(in);
    int64_t axis = layer_norm_axis(types, attrs);
    const Shape& s = in[0]->shape();
    int64_t block = numel(Shape(s.begin() + axis, s.end()));
    std::vector<double> bias = in.size() > 2 ? read_doubles(*in[2]) : std::vector<double>{};
    auto param_of = [block](int64_t i) { return i % block; };
    return std::vector<Tensor>{tensor_from(
        out[0], normalize_blocks(read_doubles(*in[0]), block, onnx_float_attr(attrs, "epsilon"),
                                 param_of, read_doubles(*in[1]), bias))};
  };
  op.onnx = {"LayerNormalization", 17, {}};
  // Infinities make the statistics NaN in one runtime and not in another (no word in ONNX).
  op.input_domains = {ValueDomain::Finite};
  // Approximated: its sqrt and division. Standardizes: each block by its own mean and deviation
  // (core/compare/precision.cpp: the rounding of x - mean and of n * scale + b).
  op.tags = {"norm", "approximated", "standardizes"};
  return op;
}

void infer_instance_norm(const std::vector<TensorType>& in) {
  const TensorType& x = in[0];
  require_dtype(x, kFloatTypes, "instance_norm input 'x'");
  require_rank(x, 3, static_cast<int64_t>(kMaxRank), "instance_norm input 'x'");
  static const char* names[] = {"x", "scale", "b"};
  for (size_t i = 1; i < 3; ++i)
    if (in[i] != TensorType{x.dtype, {x.shape[1]}})
      fail("instance_norm input '{}' must be {}[{}] (the channels of x {}), got {}", names[i],
           dtype_name(x.dtype), x.shape[1], x.str(), in[i].str());
}

OpDef instance_norm_op() {
  OpDef op;
  op.name = "instance_norm";
  op.doc =
      "Instance normalisation: each (n, c) plane of x normalized by its own mean and variance, "
      "then * scale[c] + b[c].";
  op.input_names = {"x", "scale", "b"};
  op.min_inputs = op.max_inputs = 3;
  op.attrs = {epsilon_attr()};
  op.infer = [](const std::vector<TensorType>& in, const Attrs&, size_t) {
    infer_instance_norm(in);
    return std::vector<TensorType>{in[0]};
  };
  op.kernel = [](const std::vector<const Tensor*>& in, const Attrs& attrs,
                 const std::vector<TensorType>& out) {
    const Shape& s = in[0]->shape();
    int64_t channels = s[1], plane = numel(Shape(s.begin() + 2, s.end()));
    auto param_of = [channels, plane](int64_t i) { return (i / plane) % channels; };
    return std::vector<Tensor>{tensor_from(
        out[0], normalize_blocks(read_doubles(*in[0]), plane, onnx_float_attr(attrs, "epsilon"),
                                 param_of, read_doubles(*in[1]), read_doubles(*in[2])))};
  };
  op.onnx = {"InstanceNormalization", 6, {}};
  op.input_domains = {ValueDomain::Finite};
  op.tags = {"norm", "approximated", "standardizes"};
  return op;
}

// --- group_norm -------------------------------------------------------------------------------

int64_t group_norm_groups(const std::vector<TensorType>& in, const Attrs& attrs) {
  const TensorType& x = in[0];
  require_dtype(x, kFloatTypes, "group_norm input 'x'");
  require_rank(x, 2, static_cast<int64_t>(kMaxRank), "group_norm input 'x'");
  if (attr_int(attrs, "stash_type") != 1)
    fail("group_norm supports stash_type 1 (float32) only, got {}", attr_int(attrs, "stash_type"));
  int64_t groups = attr_int(attrs, "num_groups");
  if (groups < 1 || x.shape[1] % groups != 0)
    fail("group_norm's num_groups {} must divide the {} channels of x {}", groups, x.shape[1],
         x.str());
  // ONNX's body reshapes x to [N, num_groups, -1], which no empty x has a meaning for.
  if (numel(x.shape) == 0) fail("group_norm input 'x' {} has no elements", x.str());
  static const char* names[] = {"x", "scale", "b"};
  for (size_t i = 1; i < 3; ++i)
    if (in[i] != TensorType{x.dtype, {x.shape[1]}})
      fail("group_norm input '{}' must be {}[{}] (the channels of x {}), got {}", names[i],
           dtype_name(x.dtype), x.shape[1], x.str(), in[i].str());
  return groups;
}

OpDef group_norm_op() {
  OpDef op;
  op.name = "group_norm";
  op.doc =
      "Group normalisation: the channels of x in num_groups consecutive groups, each group of "
      "an n normalized by its own mean and variance, then * scale[c] + b[c].";
  op.input_names = {"x", "scale", "b"};
  op.min_inputs = op.max_inputs = 3;
  op.attrs = {{"num_groups", AttrKind::Int, std::nullopt, true,
               "the number of groups; divides x's channels"},
              epsilon_attr(),
              stash_type_attr()};
  op.infer = [](const std::vector<TensorType>& in, const Attrs& attrs, size_t) {
    group_norm_groups(in, attrs);
    return std::vector<TensorType>{in[0]};
  };
  op.kernel = [](const std::vector<const Tensor*>& in, const Attrs& attrs,
                 const std::vector<TensorType>& out) {
    std::vector<TensorType> types = types_of(in);
    int64_t groups = group_norm_groups(types, attrs);
    const Shape& s = in[0]->shape();
    int64_t channels = s[1], plane = numel(Shape(s.begin() + 2, s.end()));
    auto param_of = [channels, plane](int64_t i) { return (i / plane) % channels; };
    return std::vector<Tensor>{
        tensor_from(out[0], normalize_blocks(read_doubles(*in[0]), channels / groups * plane,
                                             onnx_float_attr(attrs, "epsilon"), param_of,
                                             read_doubles(*in[1]), read_doubles(*in[2])))};
  };
  // Version 21: scale and b per channel (version 18 had them per group). Above the exported
  // opset: exported as a call of its function (core/ops/onnx_function.h).
  op.onnx = {"GroupNormalization", 21, {}};
  op.input_domains = {ValueDomain::Finite};
  op.tags = {"norm", "approximated", "standardizes"};
  return op;
}

// --- softmax and log_softmax ------------------------------------------------------------------

int64_t softmax_axis(const TensorType& x, const Attrs& attrs, const std::string& op) {
  require_dtype(x, kFloatTypes, fmt::format("{} input 'x'", op));
  require_rank(x, 1, static_cast<int64_t>(kMaxRank), fmt::format("{} input 'x'", op));
  return normalize_axis(attr_int(attrs, "axis"), static_cast<int64_t>(x.shape.size()));
}

// exp(x - max) / sum, or its logarithm x - max - log(sum), along one axis, in double. The max
// shift keeps exp from overflowing; NaN anywhere on a slice makes the whole slice NaN.
std::vector<double> softmax_values(const Tensor& xt, int64_t axis, bool log) {
  std::vector<double> x = read_doubles(xt);
  std::vector<bool> sel(xt.shape().size(), false);
  sel[axis] = true;
  AxisSplit split = split_axes(xt.shape(), sel);
  std::vector<double> y(x.size());
  for (int64_t base : split.kept) {
    double max = -INFINITY;
    bool nan = false;
    for (int64_t r : split.selected) {
      double v = x[base + r];
      nan = nan || std::isnan(v);
      if (v > max) max = v;
    }
    if (nan) max = NAN;
    double sum = 0.0;
    for (int64_t r : split.selected) sum += std::exp(x[base + r] - max);
    double log_sum = std::log(sum);
    for (int64_t r : split.selected) {
      double shifted = x[base + r] - max;
      y[base + r] = log ? shifted - log_sum : std::exp(shifted) / sum;
    }
  }
  return y;
}

OpDef softmax_op(bool log) {
  OpDef op;
  op.name = log ? "log_softmax" : "softmax";
  op.doc = log ? "Logarithm of softmax along one axis: x - max - log(sum(exp(x - max)))."
               : "Softmax along one axis: exp(x - max) / sum(exp(x - max)).";
  op.input_names = {"x"};
  op.attrs = {{"axis", AttrKind::Int, AttrValue{int64_t{-1}}, false,
               "the axis to normalise (negative counts from the end)"}};
  std::string name = op.name;
  op.infer = [name](const std::vector<TensorType>& in, const Attrs& attrs, size_t) {
    softmax_axis(in[0], attrs, name);
    return std::vector<TensorType>{in[0]};
  };
  op.kernel = [name, log](const std::vector<const Tensor*>& in, const Attrs& attrs,
                          const std::vector<TensorType>& out) {
    int64_t axis = softmax_axis(in[0]->type(), attrs, name);
    return std::vector<Tensor>{tensor_from(out[0], softmax_values(*in[0], axis, log))};
  };
  op.onnx = {log ? "LogSoftmax" : "Softmax", 13, {}};
  // ONNX defines them by a formula with no word on infinities; runtimes shift by the maximum
  // or not and give NaN, 0 or -inf for the same slice (docs/ops/nn.md, "Where the spec is
  // silent").
  op.input_domains = {ValueDomain::Finite};
  op.tags = {"norm", "approximated"};  // its exp and log, as the unary ones
  return op;
}

}  // namespace

void register_norm_ops(OpRegistry& r) {
  r.add(batch_norm_op());
  r.add(layer_norm_op());
  r.add(instance_norm_op());
  r.add(group_norm_op());
  r.add(softmax_op(false));
  r.add(softmax_op(true));
}

}  // namespace retort
