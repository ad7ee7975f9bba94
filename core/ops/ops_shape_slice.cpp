// slice: a strided window of the input, with ONNX's clamping of starts and ends.
#include <algorithm>
#include <limits>

#include "core/base/error.h"
#include "core/ops/data_movement.h"
#include "core/ops/infer_rules.h"
#include "core/ops/ops_shape.h"

namespace retort {

namespace {

struct SlicePlan {
  std::vector<int64_t> start, step;  // per input dimension
  Shape out;
};

const std::vector<int64_t>* optional_ints(const Attrs& a, const std::string& name) {
  return has_attr(a, name) ? &attr_ints(a, name) : nullptr;
}

// Elements start, start+step, ... strictly before end (after clamping).
int64_t slice_length(int64_t start, int64_t end, int64_t step) {
  int64_t span = step > 0 ? end - start : start - end;
  if (span <= 0) return 0;
  // |step| without overflowing at INT64_MIN; span < INT64_MAX keeps the quotient exact.
  int64_t magnitude =
      step > 0 ? step : (step == std::numeric_limits<int64_t>::min() ? INT64_MAX : -step);
  return (span - 1) / magnitude + 1;
}

SlicePlan plan_slice(const Shape& s, const Attrs& a) {
  int64_t rank = static_cast<int64_t>(s.size());
  const auto& starts = attr_ints(a, "starts");
  const auto& ends = attr_ints(a, "ends");
  const auto* axes_given = optional_ints(a, "axes");
  const auto* steps = optional_ints(a, "steps");
  size_t n = starts.size();
  auto check_len = [&](const char* name, size_t len) {
    if (len != n) fail("attribute '{}' has {} entries but 'starts' has {}", name, len, n);
  };
  check_len("ends", ends.size());
  if (axes_given) check_len("axes", axes_given->size());
  if (steps) check_len("steps", steps->size());
  std::vector<int64_t> axes;
  if (axes_given) {
    axes = normalize_axes(*axes_given, rank, "attribute 'axes'");
  } else {
    if (static_cast<int64_t>(n) > rank)
      fail("attribute 'starts' has {} entries but the input {} has rank {}", n, shape_str(s), rank);
    for (size_t i = 0; i < n; ++i) axes.push_back(static_cast<int64_t>(i));
  }

  SlicePlan plan{std::vector<int64_t>(rank, 0), std::vector<int64_t>(rank, 1), s};
  for (size_t i = 0; i < n; ++i) {
    int64_t axis = axes[i], dim = s[axis];
    int64_t step = steps ? (*steps)[i] : 1;
    if (step == 0) fail("attribute 'steps' entry {} (axis {}) is 0", i, axis);
    int64_t start = starts[i] < 0 ? starts[i] + dim : starts[i];
    int64_t end = ends[i] < 0 ? ends[i] + dim : ends[i];
    if (step > 0) {
      start = std::clamp<int64_t>(start, 0, dim);
      end = std::clamp<int64_t>(end, 0, dim);
    } else if (dim > 0) {
      start = std::clamp<int64_t>(start, 0, dim - 1);
      end = std::clamp<int64_t>(end, -1, dim - 1);
    } else {
      start = end = 0;
    }
    plan.start[axis] = start;
    plan.step[axis] = step;
    plan.out[axis] = slice_length(start, end, step);
  }
  return plan;
}

OpDef slice_op() {
  OpDef op = shape_family_op("slice",
                             "Takes starts[i]:ends[i]:steps[i] along axes[i], clamping like "
                             "ONNX Slice (negative indices count from the end; steps may be "
                             "negative).",
                             "Slice", {"data"});
  add_ints_input_attr(op, "starts", 1, true, "first index per sliced axis (negative: from end)");
  add_ints_input_attr(op, "ends", 2, true,
                      "end index (exclusive) per sliced axis; clamped, so INT64_MAX means 'to "
                      "the end'");
  add_ints_input_attr(op, "axes", 3, false, "the sliced axes; absent: 0..len(starts)-1");
  add_ints_input_attr(op, "steps", 4, false, "the stride per sliced axis, non-zero; absent: 1");
  op.infer = infer_same_dtype([](const Shape& s, const Attrs& a) { return plan_slice(s, a).out; });
  op.kernel = [](const std::vector<const Tensor*>& in, const Attrs& a,
                 const std::vector<TensorType>& out_types) {
    const Tensor& x = *in[0];
    SlicePlan plan = plan_slice(x.shape(), a);
    std::vector<int64_t> in_strides = strides_of(x.shape());
    int64_t base = 0;
    std::vector<int64_t> src_strides;
    for (size_t d = 0; d < in_strides.size(); ++d) {
      base += plan.start[d] * in_strides[d];
      // A dimension of at most one element never steps (and a huge step must not overflow).
      src_strides.push_back(plan.out[d] <= 1 ? 0 : plan.step[d] * in_strides[d]);
    }
    Tensor out(out_types[0]);
    copy_strided(x, base, src_strides, out, 0, strides_of(out.shape()), out.shape());
    return std::vector<Tensor>{std::move(out)};
  };
  return op;
}

}  // namespace

void register_slice_op(OpRegistry& r) {
  r.add(slice_op());
}

}  // namespace retort
