// pad: grows (or, with negative pads, crops) each axis, filling with a constant, the mirror
// image (reflect) or the border element (edge). Follows the ONNX reference (numpy.pad): negative
// pads crop first, then the remaining positive pads are filled from the cropped tensor.
#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/base/error.h"
#include "core/ops/data_movement.h"
#include "core/ops/infer_rules.h"
#include "core/ops/ops_shape.h"

namespace retort {

namespace {

enum class PadMode { Constant, Reflect, Edge };

PadMode pad_mode(const Attrs& a) {
  const std::string& mode = attr_string(a, "mode");
  if (mode == "constant") return PadMode::Constant;
  if (mode == "reflect") return PadMode::Reflect;
  if (mode == "edge") return PadMode::Edge;
  fail("attribute 'mode' must be \"constant\", \"reflect\" or \"edge\", got \"{}\"", mode);
}

struct AxisPad {
  int64_t begin = 0, end = 0;  // as given (negative crops)
  int64_t lo = 0, hi = 0;      // the input range [lo, hi) left after cropping
  int64_t out = 0;             // the output size
};

// How many elements a pad removes from an axis of size dim (never negating INT64_MIN).
int64_t crop_of(int64_t pad, int64_t dim) {
  return pad < -dim ? dim : std::max<int64_t>(-pad, 0);
}

std::vector<AxisPad> plan_pad(const Shape& s, const Attrs& a) {
  PadMode mode = pad_mode(a);
  const auto& pads = attr_ints(a, "pads");
  size_t rank = s.size();
  std::string given = fmt::format("[{}]", fmt::join(pads, ","));
  if (pads.size() != 2 * rank)
    fail(
        "attribute 'pads' {} has {} entries; input {} needs 2 * rank = {} (all begins, then all "
        "ends)",
        given, pads.size(), shape_str(s), 2 * rank);
  std::vector<AxisPad> plan(rank);
  for (size_t d = 0; d < rank; ++d) {
    AxisPad& p = plan[d];
    p.begin = pads[d];
    p.end = pads[rank + d];
    p.out = checked_add(checked_add(s[d], p.begin), p.end);
    if (p.out < 0)
      fail("attribute 'pads' {} makes axis {} of input {} negative ({} + {} + {})", given, d,
           shape_str(s), s[d], p.begin, p.end);
    p.lo = crop_of(p.begin, s[d]);
    p.hi = std::max(p.lo, s[d] - crop_of(p.end, s[d]));
    bool grows = p.begin > 0 || p.end > 0;
    int64_t kept = p.hi - p.lo;
    if (mode != PadMode::Constant && grows && kept == 0)
      fail("{} padding of axis {} of input {} has no element to copy", attr_string(a, "mode"), d,
           shape_str(s));
  }
  return plan;
}

// Mirrors i into [0, n) without repeating the border, as often as needed (numpy's reflect,
// which the ONNX reference uses: pads may exceed the axis size). A single element repeats.
int64_t reflect(int64_t i, int64_t n) {
  int64_t period = 2 * (n - 1);
  if (period == 0) return 0;
  int64_t m = i % period;
  if (m < 0) m += period;
  return m < n ? m : period - m;
}

// For each output position along one axis, the flat offset contribution of the input element
// it copies, or -1 where the constant goes. Positions are taken relative to the kept range
// [lo, hi), which keeps the arithmetic within int64 for any pads.
std::vector<int64_t> axis_offsets(const AxisPad& p, PadMode mode, int64_t stride) {
  int64_t kept = p.hi - p.lo;
  std::vector<int64_t> offsets(p.out);
  for (int64_t o = 0; o < p.out; ++o) {
    int64_t i = o - std::max<int64_t>(p.begin, 0);
    if (i < 0 || i >= kept) {
      if (mode == PadMode::Constant) {
        offsets[o] = -1;
        continue;
      }
      i = mode == PadMode::Edge ? std::clamp<int64_t>(i, 0, kept - 1) : reflect(i, kept);
    }
    offsets[o] = (p.lo + i) * stride;
  }
  return offsets;
}

std::vector<Tensor> pad_kernel(const std::vector<const Tensor*>& in, const Attrs& a,
                               const std::vector<TensorType>& out_types) {
  const Tensor& x = *in[0];
  PadMode mode = pad_mode(a);
  std::vector<AxisPad> plan = plan_pad(x.shape(), a);
  Tensor out(out_types[0]);
  if (mode == PadMode::Constant) {
    Tensor value(x.dtype(), {});
    value.set(0, attr_float(a, "constant_value"));
    fill_with(out, value);
  }
  std::vector<int64_t> strides = strides_of(x.shape());
  std::vector<std::vector<int64_t>> offsets;
  for (size_t d = 0; d < plan.size(); ++d)
    offsets.push_back(axis_offsets(plan[d], mode, strides[d]));
  copy_by_offsets(x, offsets, out);
  return {std::move(out)};
}

OpDef pad_op() {
  OpDef op = shape_family_op("pad",
                             "Pads each axis by pads[d] before and pads[rank+d] after (negative "
                             "crops) with a constant, the mirror image (reflect) or the border "
                             "(edge).",
                             "Pad", {"data"});
  add_ints_input_attr(op, "pads", 1, true,
                      "[begin_0, ..., begin_{r-1}, end_0, ..., end_{r-1}]; negative crops");
  op.attrs.push_back({"mode", AttrKind::String, AttrValue{std::string("constant")}, false,
                      "\"constant\", \"reflect\" or \"edge\""});
  op.attrs.push_back({"constant_value", AttrKind::Float, AttrValue{0.0}, false,
                      "the fill value in constant mode, converted to the input's dtype", false});
  op.onnx.attr_inputs.push_back(
      {.attr = "constant_value", .index = 2, .form = OnnxAttrInput::Form::ScalarOfInput0});
  op.infer = infer_same_dtype([](const Shape& s, const Attrs& a) {
    Shape out;
    for (const AxisPad& p : plan_pad(s, a)) out.push_back(p.out);
    checked_numel(out);
    return out;
  });
  op.kernel = pad_kernel;
  return op;
}

}  // namespace

void register_pad_op(OpRegistry& r) {
  r.add(pad_op());
}

}  // namespace retort
