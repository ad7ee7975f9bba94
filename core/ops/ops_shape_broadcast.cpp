// Ops that repeat the input: expand (broadcast to a shape) and tile (repeat whole copies).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/base/error.h"
#include "core/ops/data_movement.h"
#include "core/ops/infer_rules.h"
#include "core/ops/ops_shape.h"

namespace retort {

namespace {

// The numpy broadcast of the input shape with attribute 'shape' (ONNX Expand is bidirectional).
Shape expand_target(const Shape& in, const Attrs& a) {
  const auto& shape = attr_ints(a, "shape");
  for (int64_t d : shape)
    if (d < 0) fail("attribute 'shape' {} holds a negative size", shape_str(shape));
  Shape out(std::max(in.size(), shape.size()));
  for (size_t i = 0; i < out.size(); ++i) {
    size_t pos = out.size() - 1 - i;
    int64_t a = i < in.size() ? in[in.size() - 1 - i] : 1;
    int64_t b = i < shape.size() ? shape[shape.size() - 1 - i] : 1;
    if (a != b && a != 1 && b != 1)
      fail(
          "cannot expand input {} to {}: output dimension {} would need input size {} to "
          "broadcast to {}",
          shape_str(in), shape_str(shape), pos, a, b);
    out[pos] = a == 1 ? b : a;
  }
  checked_numel(out);
  return out;
}

OpDef expand_op() {
  OpDef op = shape_family_op("expand",
                             "Broadcasts the input to 'shape' by numpy rules (either side may "
                             "be 1; the result has the larger rank).",
                             "Expand", {"input"});
  add_ints_input_attr(op, "shape", 1, true, "the shape to broadcast with");
  op.infer = infer_same_dtype(expand_target);
  op.kernel = [](const std::vector<const Tensor*>& in, const Attrs&,
                 const std::vector<TensorType>& out_types) {
    const Tensor& x = *in[0];
    Tensor out(out_types[0]);
    copy_strided(x, 0, broadcast_strides(x.shape(), out.shape()), out, 0, strides_of(out.shape()),
                 out.shape());
    return std::vector<Tensor>{std::move(out)};
  };
  return op;
}

Shape tile_target(const Shape& in, const Attrs& a) {
  const auto& repeats = attr_ints(a, "repeats");
  std::string given = fmt::format("[{}]", fmt::join(repeats, ","));
  if (repeats.size() != in.size())
    fail("attribute 'repeats' {} has {} entries but the input {} has rank {}", given,
         repeats.size(), shape_str(in), in.size());
  Shape out;
  for (size_t d = 0; d < in.size(); ++d) {
    if (repeats[d] < 0) fail("attribute 'repeats' {}: entry {} is negative", given, d);
    out.push_back(checked_mul(in[d], repeats[d]));
  }
  checked_numel(out);
  return out;
}

OpDef tile_op() {
  OpDef op = shape_family_op("tile", "Repeats the whole input repeats[d] times along each axis d.",
                             "Tile", {"input"});
  add_ints_input_attr(op, "repeats", 1, true, "copies per axis, one non-negative entry per axis");
  op.infer = infer_same_dtype(tile_target);
  op.kernel = [](const std::vector<const Tensor*>& in, const Attrs&,
                 const std::vector<TensorType>& out_types) {
    const Tensor& x = *in[0];
    Tensor out(out_types[0]);
    std::vector<int64_t> strides = strides_of(x.shape());
    std::vector<std::vector<int64_t>> offsets(x.shape().size());
    for (size_t d = 0; d < offsets.size(); ++d)
      for (int64_t o = 0; o < out.shape()[d]; ++o)
        offsets[d].push_back(o % x.shape()[d] * strides[d]);
    copy_by_offsets(x, offsets, out);
    return std::vector<Tensor>{std::move(out)};
  };
  return op;
}

}  // namespace

void register_broadcast_ops(OpRegistry& r) {
  r.add(expand_op());
  r.add(tile_op());
}

}  // namespace retort
