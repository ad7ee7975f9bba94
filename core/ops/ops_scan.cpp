// Scans along one axis: cumsum.
#include "core/base/error.h"
#include "core/ops/element_values.h"
#include "core/ops/index_space.h"
#include "core/ops/infer_rules.h"
#include "core/ops/registry.h"
#include "core/ops/scalar_math.h"

namespace retort {

namespace {

int64_t cumsum_axis(const TensorType& x, const Attrs& attrs) {
  // CumSum-14's type constraint, among Retort's dtypes.
  require_dtype(x, {DType::f16, DType::f32, DType::f64, DType::i32, DType::i64},
                "cumsum input 'x'");
  return attr_axis(attrs, x.shape, "x");
}

// Running sums along the selected axis, each started at 0 and added in the order of the scan
// (from the end with reverse=1); an exclusive sum leaves the current element out. Floats are summed
// in double and each output rounded once; integers wrap.
template <typename T>
std::vector<T> cumsum_values(const Tensor& xt, int64_t axis, bool exclusive, bool reverse) {
  std::vector<T> x = read_as<T>(xt);
  std::vector<bool> sel(xt.shape().size(), false);
  sel[axis] = true;
  AxisSplit split = split_axes(xt.shape(), sel);
  std::vector<T> y(x.size());
  auto n = static_cast<int64_t>(split.selected.size());
  for (int64_t base : split.kept) {
    T acc{0};
    for (int64_t j = 0; j < n; ++j) {
      int64_t at = base + split.selected[reverse ? n - 1 - j : j];
      if (exclusive) y[at] = acc;
      acc = acc_add(acc, x[at]);
      if (!exclusive) y[at] = acc;
    }
  }
  return y;
}

OpDef cumsum_op() {
  OpDef op;
  op.name = "cumsum";
  op.doc =
      "Running sum along 'axis' (exclusive: without the element itself; reverse: from the end); "
      "floats summed in double, integers wrap.";
  op.input_names = {"x"};
  AttrSpec axis = axis_attr(std::nullopt, "the axis to scan");
  axis.onnx = false;  // ONNX's input 1, a 0-D integer tensor
  op.attrs = {
      axis,
      {"exclusive", AttrKind::Int, AttrValue{int64_t{0}}, false,
       "1: each output leaves its own element out (the first is 0)"},
      {"reverse", AttrKind::Int, AttrValue{int64_t{0}}, false, "1: sum from the end of the axis"},
  };
  op.infer = [](const std::vector<TensorType>& in, const Attrs& attrs, size_t) {
    cumsum_axis(in[0], attrs);
    return std::vector<TensorType>{in[0]};
  };
  op.kernel = [](const std::vector<const Tensor*>& in, const Attrs& attrs,
                 const std::vector<TensorType>& out) {
    int64_t axis = cumsum_axis(in[0]->type(), attrs);
    bool exclusive = attr_int(attrs, "exclusive") != 0, reverse = attr_int(attrs, "reverse") != 0;
    if (is_float(in[0]->dtype()))
      return std::vector<Tensor>{
          tensor_from(out[0], cumsum_values<double>(*in[0], axis, exclusive, reverse))};
    return std::vector<Tensor>{
        tensor_from(out[0], cumsum_values<int64_t>(*in[0], axis, exclusive, reverse))};
  };
  op.onnx = {"CumSum", 14, {{.attr = "axis", .index = 1, .form = OnnxAttrInput::Form::I64Scalar}}};
  // As reduce_sum: integer sums that leave the dtype and float sums whose magnitudes pass its
  // range are undefined (core/compare/undefined_check), and a compiler may sum in the dtype.
  op.tags = {"scan", "overflow-undefined", "accumulates"};
  return op;
}

}  // namespace

void register_scan_ops(OpRegistry& r) {
  r.add(cumsum_op());
}

}  // namespace retort
