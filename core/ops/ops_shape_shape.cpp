// shape: the input's dimensions as a 1-D i64 tensor, optionally a start:end range of them.
#include <algorithm>

#include "core/ops/op_def.h"
#include "core/ops/ops_shape.h"

namespace retort {

namespace {

// The [start, end) range of dimensions, clamped like ONNX Shape-15.
std::pair<int64_t, int64_t> dim_range(int64_t rank, const Attrs& a) {
  auto clamp = [rank](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + rank : v, 0, rank); };
  int64_t start = clamp(attr_int(a, "start"));
  int64_t end = has_attr(a, "end") ? clamp(attr_int(a, "end")) : rank;
  return {start, std::max(start, end)};
}

OpDef shape_op() {
  OpDef op = shape_family_op("shape",
                             "The input's dimensions start..end-1 as a 1-D i64 tensor (negative "
                             "bounds count from the end; both are clamped).",
                             "Shape", {"data"});
  // Only the input's type is read: import-time folding needs no value for it.
  op.tags.push_back("type_only");
  // Shape-15 only added start and end; Shape-13 is this op with their defaults.
  op.attrs.push_back({"start", AttrKind::Int, AttrValue{int64_t{0}}, false,
                      "first dimension to report (negative: from the end)"});
  op.attrs.push_back({"end", AttrKind::Int, std::nullopt, false,
                      "one past the last dimension to report; absent: the rank"});
  op.infer = [](const std::vector<TensorType>& in, const Attrs& a, size_t) {
    auto [start, end] = dim_range(static_cast<int64_t>(in[0].shape.size()), a);
    return std::vector<TensorType>{{DType::i64, {end - start}}};
  };
  op.kernel = [](const std::vector<const Tensor*>& in, const Attrs& a,
                 const std::vector<TensorType>& out_types) {
    const Shape& s = in[0]->shape();
    auto [start, end] = dim_range(static_cast<int64_t>(s.size()), a);
    Tensor out(out_types[0]);
    for (int64_t d = start; d < end; ++d) out.set_int(d - start, s[d]);
    return std::vector<Tensor>{std::move(out)};
  };
  return op;
}

}  // namespace

void register_shape_op(OpRegistry& r) {
  r.add(shape_op());
}

}  // namespace retort
