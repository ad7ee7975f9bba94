// Ops that keep the elements in order and only change the shape: reshape, flatten, squeeze,
// unsqueeze. They share one kernel (a bytewise copy under the new shape) and the tag "view".
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/base/error.h"
#include "core/ops/infer_rules.h"
#include "core/ops/ops_shape.h"

namespace retort {

namespace {

std::vector<Tensor> view_kernel(const std::vector<const Tensor*>& in, const Attrs&,
                                const std::vector<TensorType>& out) {
  return {in[0]->reshaped(out[0].shape)};
}

OpDef view_op(std::string name, std::string doc, std::string onnx_type, ShapeFn shape_of) {
  OpDef op = shape_family_op(std::move(name), std::move(doc), std::move(onnx_type), {"data"});
  op.tags.push_back("view");
  op.infer = infer_same_dtype(std::move(shape_of));
  op.kernel = view_kernel;
  return op;
}

Shape reshape_target(const Shape& in, const std::vector<int64_t>& spec, bool allowzero) {
  std::string given = shape_str(spec);
  Shape out(spec.size());
  int64_t infer_at = -1;
  int64_t known = 1;
  bool has_zero = false;
  for (size_t i = 0; i < spec.size(); ++i) {
    int64_t v = spec[i];
    if (v == -1) {
      if (infer_at >= 0) fail("attribute 'shape' {} has more than one -1", given);
      infer_at = static_cast<int64_t>(i);
      continue;
    }
    if (v < -1)
      fail("attribute 'shape' {}: entry {} is {}; entries must be -1 (infer) or sizes >= 0", given,
           i, v);
    if (v == 0 && !allowzero) {
      if (i >= in.size())
        fail(
            "attribute 'shape' {}: entry {} is 0 (copy the input's dimension {}) but the input "
            "{} has rank {}",
            given, i, i, shape_str(in), in.size());
      v = in[i];
    } else if (v == 0) {
      has_zero = true;
    }
    out[i] = v;
    known = checked_mul(known, v);
  }
  if (has_zero && infer_at >= 0)
    fail("attribute 'shape' {} holds both 0 and -1, which allowzero=1 forbids", given);
  int64_t total = numel(in);
  if (infer_at >= 0) {
    if (known == 0 || total % known != 0)
      fail("cannot reshape {} ({} elements) to {}: no size for the -1 gives {} elements",
           shape_str(in), total, given, total);
    out[infer_at] = total / known;
  } else if (known != total) {
    fail("cannot reshape {} ({} elements) to {} ({} elements)", shape_str(in), total,
         shape_str(out), known);
  }
  return out;
}

Shape reshaped(const Shape& s, const Attrs& a) {
  int64_t allowzero = attr_int(a, "allowzero");
  if (allowzero != 0 && allowzero != 1)
    fail("attribute 'allowzero' must be 0 or 1, got {}", allowzero);
  return reshape_target(s, attr_ints(a, "shape"), allowzero == 1);
}

OpDef reshape_op() {
  OpDef op = view_op("reshape",
                     "Same elements in row-major order under a new shape. In 'shape', 0 copies "
                     "the input's dimension (unless allowzero=1) and one -1 is inferred.",
                     "Reshape", reshaped);
  // Reshape-14 only added allowzero; Reshape-13 is this op with its default, so opset 13 maps too.
  add_ints_input_attr(op, "shape", 1, true, "the new shape; 0 copies, -1 infers");
  op.attrs.push_back(
      {"allowzero", AttrKind::Int, AttrValue{int64_t{0}}, false,
       "1: a 0 in 'shape' means size zero instead of copying the input's dimension"});
  return op;
}

Shape flattened(const Shape& s, const Attrs& a) {
  int64_t rank = static_cast<int64_t>(s.size());
  int64_t axis = attr_int(a, "axis");
  if (axis < -rank || axis > rank)
    fail("attribute 'axis' {} is out of range [{}, {}] for input {}", axis, -rank, rank,
         shape_str(s));
  if (axis < 0) axis += rank;
  Shape rows(s.begin(), s.begin() + axis), cols(s.begin() + axis, s.end());
  return {numel(rows), numel(cols)};
}

OpDef flatten_op() {
  OpDef op = view_op("flatten",
                     "Reshapes to 2-D: dimensions before 'axis' form the rows, the rest the "
                     "columns (axis in [-rank, rank]).",
                     "Flatten", flattened);
  op.attrs.push_back({"axis", AttrKind::Int, AttrValue{int64_t{1}}, false,
                      "the first dimension of the columns, in [-rank, rank]"});
  return op;
}

Shape squeezed(const Shape& s, const Attrs& a) {
  std::vector<bool> drop(s.size(), false);
  if (has_attr(a, "axes")) {
    for (int64_t axis :
         normalize_axes(attr_ints(a, "axes"), static_cast<int64_t>(s.size()), "attribute 'axes'")) {
      if (s[axis] != 1)
        fail("cannot squeeze axis {} of input {}: its size is {}, not 1", axis, shape_str(s),
             s[axis]);
      drop[axis] = true;
    }
  } else {
    for (size_t d = 0; d < s.size(); ++d) drop[d] = s[d] == 1;
  }
  Shape out;
  for (size_t d = 0; d < s.size(); ++d)
    if (!drop[d]) out.push_back(s[d]);
  return out;
}

OpDef squeeze_op() {
  OpDef op = view_op("squeeze",
                     "Removes the size-1 dimensions listed in 'axes' (all size-1 dimensions when "
                     "'axes' is absent).",
                     "Squeeze", squeezed);
  add_ints_input_attr(op, "axes", 1, false, "dimensions of size 1 to remove; absent: all of them");
  return op;
}

Shape unsqueezed(const Shape& s, const Attrs& a) {
  const auto& axes = attr_ints(a, "axes");
  int64_t out_rank = static_cast<int64_t>(s.size() + axes.size());
  std::vector<bool> is_new(out_rank, false);
  for (int64_t axis : normalize_axes(axes, out_rank, "attribute 'axes'")) is_new[axis] = true;
  Shape out;
  size_t next = 0;
  for (int64_t d = 0; d < out_rank; ++d) out.push_back(is_new[d] ? 1 : s[next++]);
  return out;
}

OpDef unsqueeze_op() {
  OpDef op = view_op("unsqueeze",
                     "Inserts size-1 dimensions at 'axes', which index the output (rank + "
                     "len(axes)).",
                     "Unsqueeze", unsqueezed);
  add_ints_input_attr(op, "axes", 1, true, "positions of the new size-1 dimensions in the output");
  return op;
}

}  // namespace

void register_reshape_ops(OpRegistry& r) {
  r.add(reshape_op());
  r.add(flatten_op());
  r.add(squeeze_op());
  r.add(unsqueeze_op());
}

}  // namespace retort
