// gather_elements and scatter_elements: one index per element, along one axis.
#include <algorithm>

#include "core/base/error.h"
#include "core/ops/data_movement.h"
#include "core/ops/element_values.h"
#include "core/ops/index_space.h"
#include "core/ops/infer_rules.h"
#include "core/ops/ops_shape.h"
#include "core/ops/scalar_math.h"

namespace retort {

namespace {

// Checks indices against data (same rank; no longer than data on the other axes, which ONNX
// Runtime requires) and returns the axis.
int64_t element_axis(const TensorType& data, const TensorType& indices, const Attrs& a,
                     const std::string& op) {
  int64_t axis = attr_axis(a, data.shape, "data");
  require_dtype(indices, {DType::i32, DType::i64}, op + " input 'indices'");
  if (indices.shape.size() != data.shape.size())
    fail("{} input 'indices' {} must have the rank of data {}", op, indices.str(), data.str());
  for (size_t d = 0; d < data.shape.size(); ++d)
    if (static_cast<int64_t>(d) != axis && indices.shape[d] > data.shape[d])
      fail("{} input 'indices' {} is longer than data {} on axis {}", op, indices.str(), data.str(),
           d);
  return axis;
}

// For each element of indices (row-major), the flat offset in data of the element it names:
// its own position with the coordinate on `axis` replaced by its index (negative counts from
// the end).
std::vector<int64_t> element_offsets(const Shape& data, const Tensor& indices, int64_t axis) {
  int64_t dim = data[axis];
  std::vector<int64_t> strides(data.size(), 1), at;
  for (int64_t d = static_cast<int64_t>(data.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * data[d + 1];
  std::vector<int64_t> offsets(static_cast<size_t>(indices.numel()));
  for (int64_t k = 0; k < indices.numel(); ++k) {
    int64_t idx = indices.get_int(k);
    if (idx < -dim || idx >= dim)
      fail("index {} (element {} of 'indices') is out of range [{}, {}] for axis {} of data {}",
           idx, k, -dim, dim - 1, axis, shape_str(data));
    unravel(k, indices.shape(), at);
    at[axis] = idx < 0 ? idx + dim : idx;
    offsets[k] = ravel(at, strides);
  }
  return offsets;
}

OpDef gather_elements_op() {
  OpDef op = shape_family_op(
      "gather_elements",
      "Picks one element of data per element of 'indices' (same rank; i32/i64, negative counts "
      "from the end): y[i] = data[i with axis coordinate indices[i]]; output shape = indices'.",
      "GatherElements", {"data", "indices"});
  op.attrs.push_back(axis_attr(0, "the axis of data to index"));
  op.input_domains = {ValueDomain::Any, ValueDomain::AxisIndex};
  op.infer = [](const std::vector<TensorType>& in, const Attrs& a, size_t) {
    element_axis(in[0], in[1], a, "gather_elements");
    return std::vector<TensorType>{{in[0].dtype, in[1].shape}};
  };
  op.kernel = [](const std::vector<const Tensor*>& in, const Attrs& a,
                 const std::vector<TensorType>& out_types) {
    int64_t axis = element_axis(in[0]->type(), in[1]->type(), a, "gather_elements");
    Tensor out(out_types[0]);
    copy_by_offsets(*in[0], {element_offsets(in[0]->shape(), *in[1], axis)}, out);
    return std::vector<Tensor>{std::move(out)};
  };
  op.tags.push_back("element-indices");
  return op;
}

// data with each update applied in the order of indices: written (none), added or multiplied
// (wrapping for integers, in double for floats, each element rounded once at the end).
template <typename T>
std::vector<T> scatter_values(const Tensor& data, const Tensor& updates,
                              const std::vector<int64_t>& offsets, const std::string& reduction) {
  std::vector<T> y = read_as<T>(data), u = read_as<T>(updates);
  for (size_t k = 0; k < offsets.size(); ++k) {
    T& v = y[offsets[k]];
    if (reduction == "add")
      v = acc_add(v, u[k]);
    else if (reduction == "mul")
      v = acc_mul(v, u[k]);
    else
      v = u[k];
  }
  return y;
}

int64_t scatter_axis(const std::vector<TensorType>& in, const Attrs& a) {
  int64_t axis = element_axis(in[0], in[1], a, "scatter_elements");
  if (in[2].dtype != in[0].dtype || in[2].shape != in[1].shape)
    fail("scatter_elements input 'updates' {} must have data's dtype and indices' shape {}",
         in[2].str(), shape_str(in[1].shape));
  const std::string& reduction = attr_string(a, "reduction");
  if (reduction != "none" && reduction != "add" && reduction != "mul")
    fail("scatter_elements reduction \"{}\" is not one of \"none\", \"add\", \"mul\"", reduction);
  if (reduction != "none" && in[0].dtype == DType::boolean)
    fail("scatter_elements reduction \"{}\" needs numbers, got {}", reduction, in[0].str());
  return axis;
}

OpDef scatter_elements_op() {
  OpDef op = shape_family_op(
      "scatter_elements",
      "data with updates[i] written (or added, multiplied) at i with the axis coordinate "
      "indices[i]; indices and updates share a shape of data's rank.",
      "ScatterElements", {"data", "indices", "updates"});
  op.attrs.push_back(axis_attr(0, "the axis of data to index"));
  op.attrs.push_back({"reduction", AttrKind::String, AttrValue{std::string("none")}, false,
                      "\"none\" (write; repeated indices are undefined), \"add\" or \"mul\""});
  op.input_domains = {ValueDomain::Any, ValueDomain::AxisIndex, ValueDomain::Any};
  op.infer = [](const std::vector<TensorType>& in, const Attrs& a, size_t) {
    scatter_axis(in, a);
    return std::vector<TensorType>{in[0]};
  };
  op.kernel = [](const std::vector<const Tensor*>& in, const Attrs& a,
                 const std::vector<TensorType>& out_types) {
    int64_t axis = scatter_axis({in[0]->type(), in[1]->type(), in[2]->type()}, a);
    std::vector<int64_t> offsets = element_offsets(in[0]->shape(), *in[1], axis);
    const std::string& reduction = attr_string(a, "reduction");
    if (is_float(in[0]->dtype()))
      return std::vector<Tensor>{
          tensor_from(out_types[0], scatter_values<double>(*in[0], *in[2], offsets, reduction))};
    return std::vector<Tensor>{
        tensor_from(out_types[0], scatter_values<int64_t>(*in[0], *in[2], offsets, reduction))};
  };
  // Opset 16: reduction none, add, mul (18 adds max and min, above the exported opset 17).
  op.onnx.since_opset = 16;
  // Not "shape": an add or mul computes. A float add sums data and the updates in double, a
  // compiler in the dtype: the precision band and the overflow check of summing ops apply.
  op.tags = {"element-indices", "accumulates"};
  return op;
}

}  // namespace

void register_element_index_ops(OpRegistry& r) {
  r.add(gather_elements_op());
  r.add(scatter_elements_op());
}

}  // namespace retort
