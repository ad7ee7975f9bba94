// gather: picks entries along one axis of data by an integer index tensor.
#include "core/base/error.h"
#include "core/ops/data_movement.h"
#include "core/ops/infer_rules.h"
#include "core/ops/ops_shape.h"

namespace retort {

namespace {

std::vector<TensorType> infer_gather(const std::vector<TensorType>& in, const Attrs& a, size_t) {
  const Shape& data = in[0].shape;
  int64_t axis = attr_axis(a, data, "data");
  require_dtype(in[1], {DType::i32, DType::i64}, "input 'indices'");
  Shape out(data.begin(), data.begin() + axis);
  out.insert(out.end(), in[1].shape.begin(), in[1].shape.end());
  out.insert(out.end(), data.begin() + axis + 1, data.end());
  return {{in[0].dtype, out}};
}

// Views data as [outer, dim, inner] and the output as [outer, numel(indices), inner].
std::vector<Tensor> gather_kernel(const std::vector<const Tensor*>& in, const Attrs& a,
                                  const std::vector<TensorType>& out_types) {
  const Tensor& data = *in[0];
  const Tensor& indices = *in[1];
  const Shape& s = data.shape();
  int64_t axis = attr_axis(a, s, "data");
  int64_t dim = s[axis];
  int64_t inner = numel(Shape(s.begin() + axis + 1, s.end()));
  int64_t outer = numel(Shape(s.begin(), s.begin() + axis));
  std::vector<std::vector<int64_t>> offsets(3);
  for (int64_t i = 0; i < outer; ++i) offsets[0].push_back(i * dim * inner);
  for (int64_t k = 0; k < indices.numel(); ++k) {
    int64_t idx = indices.get_int(k);
    if (idx < -dim || idx >= dim)
      fail("index {} (element {} of 'indices') is out of range [{}, {}] for axis {} of data {}",
           idx, k, -dim, dim - 1, axis, shape_str(s));
    offsets[1].push_back((idx < 0 ? idx + dim : idx) * inner);
  }
  for (int64_t j = 0; j < inner; ++j) offsets[2].push_back(j);
  Tensor out(out_types[0]);
  copy_by_offsets(data, offsets, out);
  return {std::move(out)};
}

OpDef gather_op() {
  OpDef op = shape_family_op("gather",
                             "Picks entries of data along 'axis' at 'indices' (i32/i64, negative "
                             "counts from the end); output shape data[:axis] + indices + "
                             "data[axis+1:].",
                             "Gather", {"data", "indices"});
  op.attrs.push_back(axis_attr(0, "the axis of data to index"));
  op.input_domains = {ValueDomain::Any, ValueDomain::AxisIndex};
  op.infer = infer_gather;
  op.kernel = gather_kernel;
  return op;
}

}  // namespace

void register_gather_op(OpRegistry& r) {
  r.add(gather_op());
}

}  // namespace retort
