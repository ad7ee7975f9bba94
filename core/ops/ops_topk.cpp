// topk: the k largest (or smallest) elements along one axis, and their indices.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/base/error.h"
#include "core/ops/data_movement.h"
#include "core/ops/element_values.h"
#include "core/ops/index_space.h"
#include "core/ops/infer_rules.h"
#include "core/ops/registry.h"

namespace retort {

namespace {

int64_t topk_axis(const TensorType& x, const Attrs& attrs) {
  require_dtype(x,
                {DType::f16, DType::f32, DType::f64, DType::i8, DType::u8, DType::i16, DType::i32,
                 DType::i64},
                "topk input 'x'");
  int64_t axis = attr_axis(attrs, x.shape, "x");
  int64_t k = attr_int(attrs, "k");
  if (k < 1 || k > x.shape[axis])
    fail("topk k {} is outside [1, {}] (axis {} of x {})", k, x.shape[axis], axis, x.str());
  // ONNX leaves the order of the k elements open with sorted=0: runtimes differ, and so would
  // every comparison of them.
  if (attr_int(attrs, "sorted") != 1)
    fail("topk supports sorted=1 only (with sorted=0 ONNX leaves the order open)");
  return axis;
}

// Per slice along the axis, the positions of its k first elements in the order: larger (or
// smaller) first, a NaN before every number (as argmax and argmin count it), and ties in order of
// position, lower first (ONNX's rule). Returns, for each output element, the offset of its source
// in x and its position along the axis.
template <typename T>
void topk_order(const Tensor& xt, const Shape& out_shape, int64_t axis, bool largest,
                std::vector<int64_t>& source, std::vector<int64_t>& position) {
  std::vector<T> x = read_as<T>(xt);
  std::vector<bool> sel(xt.shape().size(), false);
  sel[axis] = true;
  AxisSplit in = split_axes(xt.shape(), sel), out = split_axes(out_shape, sel);
  auto first = [largest](T a, T b) {
    if constexpr (std::is_same_v<T, double>)
      if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && !std::isnan(b);
    return largest ? a > b : a < b;
  };
  size_t n = in.selected.size(), k = out.selected.size();
  source.assign(static_cast<size_t>(numel(out_shape)), 0);
  position.assign(source.size(), 0);
  std::vector<int64_t> order(n);
  for (size_t o = 0; o < in.kept.size(); ++o) {
    const T* row = x.data() + in.kept[o];
    std::iota(order.begin(), order.end(), int64_t{0});
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
      return first(row[in.selected[a]], row[in.selected[b]]);
    });
    for (size_t j = 0; j < k; ++j) {
      int64_t at = out.kept[o] + out.selected[j];
      source[at] = in.kept[o] + in.selected[order[j]];
      position[at] = order[j];
    }
  }
}

OpDef topk_op() {
  OpDef op;
  op.name = "topk";
  op.doc =
      "The k largest (largest=0: smallest) elements along 'axis', sorted, and their i64 "
      "indices; ties go to the lower index, NaN counts as beyond every number (ONNX does not "
      "say, so its domain is non-NaN).";
  op.input_names = {"x"};
  op.num_outputs = 2;
  AttrSpec k{"k", AttrKind::Int, std::nullopt, true, "how many elements to keep, in [1, extent]"};
  k.onnx = false;  // ONNX's input 1, a one-element int64 list
  op.attrs = {
      axis_attr(-1, "the axis to select along"),
      k,
      {"largest", AttrKind::Int, AttrValue{int64_t{1}}, false, "1: the largest, 0: the smallest"},
      {"sorted", AttrKind::Int, AttrValue{int64_t{1}}, false,
       "must be 1: the elements in order (sorted=0 leaves the order open)"},
  };
  op.infer = [](const std::vector<TensorType>& in, const Attrs& attrs, size_t) {
    int64_t axis = topk_axis(in[0], attrs);
    Shape s = in[0].shape;
    s[axis] = attr_int(attrs, "k");
    return std::vector<TensorType>{{in[0].dtype, s}, {DType::i64, s}};
  };
  op.kernel = [](const std::vector<const Tensor*>& in, const Attrs& attrs,
                 const std::vector<TensorType>& out) {
    int64_t axis = topk_axis(in[0]->type(), attrs);
    bool largest = attr_int(attrs, "largest") != 0;
    std::vector<int64_t> source, position;
    if (is_float(in[0]->dtype()))
      topk_order<double>(*in[0], out[0].shape, axis, largest, source, position);
    else
      topk_order<int64_t>(*in[0], out[0].shape, axis, largest, source, position);
    Tensor values(out[0]);
    copy_by_offsets(*in[0], {source}, values);
    return std::vector<Tensor>{std::move(values), tensor_from(out[1], position)};
  };
  op.onnx = {"TopK", 11, {{.attr = "k", .index = 1}}};
  op.input_domains = {ValueDomain::NotNaN};
  op.tags = {"select"};
  return op;
}

}  // namespace

void register_topk_op(OpRegistry& r) {
  r.add(topk_op());
}

}  // namespace retort
