// Linear quantization (ONNX's QDQ pair): quantize_linear and dequantize_linear, per tensor or
// per axis, to and from u8 and i8.
#include <algorithm>
#include <cmath>

#include "core/base/error.h"
#include "core/ops/element_values.h"
#include "core/ops/index_space.h"
#include "core/ops/infer_rules.h"
#include "core/ops/registry.h"

namespace retort {

namespace {

constexpr std::initializer_list<DType> kQuantTypes = {DType::u8, DType::i8};

// The axis along which a 1-D scale (and zero point) applies; -1 for a per-tensor (0-D) scale.
// `x` is the quantized or real input, `scale` input 1, `zero` input 2 when given.
int64_t quant_axis(const std::string& op, const std::vector<TensorType>& in, const Attrs& attrs) {
  const TensorType &x = in[0], &scale = in[1];
  require_dtype(scale, {DType::f32}, op + " input 'scale'");
  if (in.size() > 2 && in[2].shape != scale.shape)
    fail("{} zero point {} must have the shape of the scale {}", op, in[2].str(), scale.str());
  if (scale.shape.empty()) return -1;
  if (scale.shape.size() != 1) fail("{} scale must be 0-D or 1-D, got {}", op, scale.str());
  int64_t axis = attr_axis(attrs, x.shape, "x");
  if (scale.shape[0] != x.shape[axis])
    fail("{} per-axis scale {} must have the extent {} of x {} on axis {}", op, scale.str(),
         x.shape[axis], x.str(), axis);
  return axis;
}

// The scale (and zero point) index of each element of a tensor of shape s.
int64_t param_index(int64_t k, const Shape& s, int64_t axis) {
  if (axis < 0) return 0;
  int64_t inner = numel(Shape(s.begin() + axis + 1, s.end()));
  return (k / inner) % s[axis];
}

AttrSpec quant_axis_attr() {
  return axis_attr(1, "the axis a 1-D scale and zero point run along (ignored for 0-D ones)");
}

OpDef quantize_linear_op() {
  OpDef op;
  op.name = "quantize_linear";
  op.doc =
      "y = saturate(round_half_even(x / y_scale) + y_zero_point), x / y_scale rounded to f32; "
      "y has the zero point's dtype (u8 or i8; u8 without one).";
  op.input_names = {"x", "y_scale", "y_zero_point"};
  op.min_inputs = 2;
  op.max_inputs = 3;
  op.attrs = {quant_axis_attr()};
  op.infer = [](const std::vector<TensorType>& in, const Attrs& attrs, size_t) {
    require_dtype(in[0], {DType::f32}, "quantize_linear input 'x'");
    if (in.size() > 2) require_dtype(in[2], kQuantTypes, "quantize_linear zero point");
    quant_axis("quantize_linear", in, attrs);
    return std::vector<TensorType>{{in.size() > 2 ? in[2].dtype : DType::u8, in[0].shape}};
  };
  op.kernel = [](const std::vector<const Tensor*>& in, const Attrs& attrs,
                 const std::vector<TensorType>& out) {
    std::vector<TensorType> types = types_of(in);
    int64_t axis = quant_axis("quantize_linear", types, attrs);
    bool u8 = out[0].dtype == DType::u8;
    double lo = u8 ? 0 : -128, hi = u8 ? 255 : 127;
    Tensor y(out[0]);
    for (int64_t k = 0; k < y.numel(); ++k) {
      int64_t p = param_index(k, in[0]->shape(), axis);
      // ONNX divides in float32 and rounds the quotient half to even (nearbyint's default mode).
      float q = static_cast<float>(in[0]->get(k)) / static_cast<float>(in[1]->get(p));
      double zero = in.size() > 2 ? in[2]->get(p) : 0.0;
      y.set(k, std::clamp(std::nearbyint(static_cast<double>(q)) + zero, lo, hi));
    }
    return std::vector<Tensor>{std::move(y)};
  };
  op.onnx = {"QuantizeLinear", 13, {}};
  // NaN has no quantized value (ONNX says nothing); a zero scale divides by zero.
  op.input_domains = {ValueDomain::NotNaN, ValueDomain::Positive, ValueDomain::Any};
  op.tags = {"quantize"};
  return op;
}

OpDef dequantize_linear_op() {
  OpDef op;
  op.name = "dequantize_linear";
  op.doc = "y = (x - x_zero_point) * x_scale in f32, for x u8 or i8 (zero point of x's dtype).";
  op.input_names = {"x", "x_scale", "x_zero_point"};
  op.min_inputs = 2;
  op.max_inputs = 3;
  op.attrs = {quant_axis_attr()};
  op.infer = [](const std::vector<TensorType>& in, const Attrs& attrs, size_t) {
    require_dtype(in[0], kQuantTypes, "dequantize_linear input 'x'");
    if (in.size() > 2 && in[2].dtype != in[0].dtype)
      fail("dequantize_linear zero point {} must have x's dtype {}", in[2].str(),
           dtype_name(in[0].dtype));
    quant_axis("dequantize_linear", in, attrs);
    return std::vector<TensorType>{{DType::f32, in[0].shape}};
  };
  op.kernel = [](const std::vector<const Tensor*>& in, const Attrs& attrs,
                 const std::vector<TensorType>& out) {
    std::vector<TensorType> types = types_of(in);
    int64_t axis = quant_axis("dequantize_linear", types, attrs);
    Tensor y(out[0]);
    // x - zero point is exact, and its product with an f32 scale is exact in double: rounding it
    // to f32 once is ONNX's float32 arithmetic.
    for (int64_t k = 0; k < y.numel(); ++k) {
      int64_t p = param_index(k, in[0]->shape(), axis);
      double zero = in.size() > 2 ? in[2]->get(p) : 0.0;
      y.set(k, (in[0]->get(k) - zero) * in[1]->get(p));
    }
    return std::vector<Tensor>{std::move(y)};
  };
  op.onnx = {"DequantizeLinear", 13, {}};
  op.tags = {"quantize"};
  return op;
}

}  // namespace

void register_quant_ops(OpRegistry& r) {
  r.add(quantize_linear_op());
  r.add(dequantize_linear_op());
}

}  // namespace retort
