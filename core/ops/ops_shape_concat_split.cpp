// concat and split: joining inputs along one axis, and cutting one input into pieces along it.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/base/error.h"
#include "core/ops/data_movement.h"
#include "core/ops/infer_rules.h"
#include "core/ops/ops_shape.h"

namespace retort {

namespace {

std::vector<TensorType> infer_concat(const std::vector<TensorType>& in, const Attrs& a, size_t) {
  const Shape& first = in[0].shape;
  int64_t axis = attr_axis(a, first, "input");
  Shape out = first;
  for (size_t k = 1; k < in.size(); ++k) {
    const Shape& s = in[k].shape;
    if (in[k].dtype != in[0].dtype)
      fail("input {} is {} but input 0 is {}; concat needs one dtype", k, dtype_name(in[k].dtype),
           dtype_name(in[0].dtype));
    if (s.size() != first.size())
      fail("input {} {} has rank {} but input 0 {} has rank {}", k, shape_str(s), s.size(),
           shape_str(first), first.size());
    for (size_t d = 0; d < s.size(); ++d)
      if (static_cast<int64_t>(d) != axis && s[d] != first[d])
        fail(
            "input {} {} and input 0 {} differ in dimension {} ({} vs {}); only the concat "
            "axis {} may differ",
            k, shape_str(s), shape_str(first), d, s[d], first[d], axis);
    out[axis] = checked_add(out[axis], s[axis]);
  }
  return {{in[0].dtype, out}};
}

std::vector<Tensor> concat_kernel(const std::vector<const Tensor*>& in, const Attrs& a,
                                  const std::vector<TensorType>& out_types) {
  Tensor out(out_types[0]);
  int64_t axis = attr_axis(a, out.shape(), "input");
  std::vector<int64_t> out_strides = strides_of(out.shape());
  int64_t at = 0;
  for (const Tensor* x : in) {
    copy_strided(*x, 0, strides_of(x->shape()), out, at * out_strides[axis], out_strides,
                 x->shape());
    at += x->shape()[axis];
  }
  return {std::move(out)};
}

OpDef concat_op() {
  OpDef op = shape_family_op("concat",
                             "Joins the inputs along 'axis'; all other dimensions and the dtype "
                             "must match.",
                             "Concat", {"inputs"});
  op.max_inputs = -1;
  op.tags.push_back("variadic");
  op.attrs.push_back(axis_attr(std::nullopt, "the axis to join along"));
  op.infer = infer_concat;
  op.kernel = concat_kernel;
  return op;
}

struct SplitPlan {
  int64_t axis = 0;
  std::vector<int64_t> sizes;
};

SplitPlan plan_split(const Shape& s, const Attrs& a, size_t num_outputs) {
  SplitPlan plan;
  plan.axis = attr_axis(a, s, "input");
  int64_t dim = s[plan.axis];
  int64_t n = static_cast<int64_t>(num_outputs);
  if (n < 1) fail("split needs at least one output");
  if (has_attr(a, "parts") && attr_int(a, "parts") != n)
    fail("attribute 'parts' is {} but the node names {} outputs", attr_int(a, "parts"), n);
  if (has_attr(a, "split")) {
    plan.sizes = attr_ints(a, "split");
    std::string given = fmt::format("[{}]", fmt::join(plan.sizes, ","));
    if (static_cast<int64_t>(plan.sizes.size()) != n)
      fail("attribute 'split' {} has {} sizes but the node names {} outputs", given,
           plan.sizes.size(), n);
    int64_t sum = 0;
    for (int64_t size : plan.sizes) {
      if (size < 0) fail("attribute 'split' {} holds a negative size {}", given, size);
      sum = checked_add(sum, size);
    }
    if (sum != dim)
      fail("attribute 'split' {} sums to {} but axis {} of input {} has size {}", given, sum,
           plan.axis, shape_str(s), dim);
    return plan;
  }
  if (dim % n != 0)
    fail("cannot split axis {} of input {} (size {}) into {} equal parts", plan.axis, shape_str(s),
         dim, n);
  plan.sizes.assign(n, dim / n);
  return plan;
}

std::vector<TensorType> infer_split(const std::vector<TensorType>& in, const Attrs& a, size_t n) {
  SplitPlan plan = plan_split(in[0].shape, a, n);
  std::vector<TensorType> out;
  for (int64_t size : plan.sizes) {
    TensorType t = in[0];
    t.shape[plan.axis] = size;
    out.push_back(t);
  }
  return out;
}

std::vector<Tensor> split_kernel(const std::vector<const Tensor*>& in, const Attrs& a,
                                 const std::vector<TensorType>& out_types) {
  const Tensor& x = *in[0];
  SplitPlan plan = plan_split(x.shape(), a, out_types.size());
  std::vector<int64_t> in_strides = strides_of(x.shape());
  std::vector<Tensor> outs;
  int64_t at = 0;
  for (const TensorType& t : out_types) {
    Tensor piece(t);
    copy_strided(x, at * in_strides[plan.axis], in_strides, piece, 0, strides_of(t.shape), t.shape);
    at += t.shape[plan.axis];
    outs.push_back(std::move(piece));
  }
  return outs;
}

OpDef split_op() {
  OpDef op = shape_family_op("split",
                             "Cuts the input along 'axis' into one piece per output: sizes from "
                             "'split', or equal parts.",
                             "Split", {"input"});
  op.num_outputs = -1;
  op.tags.push_back("multi_output");
  op.attrs.push_back(axis_attr(0, "the axis to cut"));
  add_ints_input_attr(op, "split", 1, false,
                      "the size of each piece (one per output, summing to the axis size); "
                      "absent: equal parts");
  op.attrs.push_back({"parts", AttrKind::Int, std::nullopt, false,
                      "Retort only: the number of pieces, which must equal the number of outputs",
                      false});
  op.infer = infer_split;
  op.kernel = split_kernel;
  return op;
}

}  // namespace

void register_concat_split_ops(OpRegistry& r) {
  r.add(concat_op());
  r.add(split_op());
}

}  // namespace retort
