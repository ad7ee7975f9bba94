// resize: ONNX Resize (opset 13) to stated sizes over the spatial axes of N x C x D1 [x D2 [x D3]],
// nearest or linear, in the coordinate modes that frameworks share (docs/ops/nn.md, resize).
#include <algorithm>
#include <cmath>

#include "core/base/error.h"
#include "core/ops/element_values.h"
#include "core/ops/index_space.h"
#include "core/ops/infer_rules.h"
#include "core/ops/registry.h"

namespace retort {

namespace {

enum class Coord { HalfPixel, PytorchHalfPixel, AlignCorners, Asymmetric };
enum class Rounding { RoundPreferFloor, RoundPreferCeil, Floor, Ceil };

struct ResizePlan {
  bool linear = false;
  Coord coord = Coord::HalfPixel;
  Rounding rounding = Rounding::RoundPreferFloor;
  Shape out;
};

ResizePlan resize_plan(const TensorType& x, const Attrs& a) {
  require_dtype(x, {DType::f16, DType::f32, DType::f64}, "resize input 'x'");
  require_rank(x, 3, 5, "resize input 'x'");
  ResizePlan p;
  const std::string& mode = attr_string(a, "mode");
  if (mode != "nearest" && mode != "linear")
    fail("resize mode must be \"nearest\" or \"linear\", got \"{}\"", mode);
  p.linear = mode == "linear";
  const std::string& coord = attr_string(a, "coordinate_transformation_mode");
  if (coord == "half_pixel")
    p.coord = Coord::HalfPixel;
  else if (coord == "pytorch_half_pixel")
    p.coord = Coord::PytorchHalfPixel;
  else if (coord == "align_corners")
    p.coord = Coord::AlignCorners;
  else if (coord == "asymmetric")
    p.coord = Coord::Asymmetric;
  else
    fail(
        "resize coordinate_transformation_mode must be \"half_pixel\", \"pytorch_half_pixel\", "
        "\"align_corners\" or \"asymmetric\", got \"{}\"",
        coord);
  const std::string& nearest = attr_string(a, "nearest_mode");
  if (nearest == "round_prefer_floor")
    p.rounding = Rounding::RoundPreferFloor;
  else if (nearest == "round_prefer_ceil")
    p.rounding = Rounding::RoundPreferCeil;
  else if (nearest == "floor")
    p.rounding = Rounding::Floor;
  else if (nearest == "ceil")
    p.rounding = Rounding::Ceil;
  else
    fail(
        "resize nearest_mode must be \"round_prefer_floor\", \"round_prefer_ceil\", \"floor\" or "
        "\"ceil\", got \"{}\"",
        nearest);
  p.out = attr_ints(a, "sizes");
  if (p.out.size() != x.shape.size())
    fail("resize sizes {} must give every axis of x {}", shape_str(p.out), x.str());
  if (p.out[0] != x.shape[0] || p.out[1] != x.shape[1])
    fail("resize sizes {} must keep the batch and channel extents of x {}", shape_str(p.out),
         x.str());
  for (int64_t d : p.out)
    if (d < 1) fail("resize sizes {} must be positive", shape_str(p.out));
  if (numel(x.shape) == 0) fail("resize input 'x' {} is empty", x.str());
  return p;
}

// The input coordinate of output position `dst` along an axis of `in` -> `out` elements, with
// scale = out / in taken exactly (the sizes are given).
double source_coord(int64_t dst, int64_t in, int64_t out, Coord c) {
  double d = static_cast<double>(dst), i = static_cast<double>(in), o = static_cast<double>(out);
  switch (c) {
    case Coord::HalfPixel:
      return (2 * d + 1) * i / (2 * o) - 0.5;
    case Coord::PytorchHalfPixel:
      return out > 1 ? (2 * d + 1) * i / (2 * o) - 0.5 : 0.0;
    case Coord::AlignCorners:
      return out == 1 ? 0.0 : d * (i - 1) / (o - 1);
    case Coord::Asymmetric:
      return d * i / o;
  }
  return 0.0;
}

int64_t nearest_index(double x, Rounding r, int64_t in) {
  double k = 0;
  switch (r) {
    case Rounding::RoundPreferFloor:
      k = x - std::floor(x) == 0.5 ? std::floor(x) : std::round(x);
      break;
    case Rounding::RoundPreferCeil:
      k = std::floor(x + 0.5);
      break;
    case Rounding::Floor:
      k = std::floor(x);
      break;
    case Rounding::Ceil:
      k = std::ceil(x);
      break;
  }
  return std::clamp<int64_t>(static_cast<int64_t>(k), 0, in - 1);
}

// Per output position of one axis, the one or two input positions it reads and their weights:
// nearest reads one; linear reads floor(x) and floor(x) + 1, each clamped into the axis (ONNX's
// reference pads with the edge value), weighted 1 - f and f.
struct AxisTable {
  std::vector<int64_t> lo, hi;
  std::vector<double> w;  // weight of hi
};

AxisTable axis_table(int64_t in, int64_t out, const ResizePlan& p) {
  AxisTable t;
  for (int64_t dst = 0; dst < out; ++dst) {
    double x = source_coord(dst, in, out, p.coord);
    if (!p.linear) {
      t.lo.push_back(nearest_index(x, p.rounding, in));
      t.hi.push_back(t.lo.back());
      t.w.push_back(0.0);
      continue;
    }
    double f = std::floor(x);
    t.lo.push_back(std::clamp<int64_t>(static_cast<int64_t>(f), 0, in - 1));
    t.hi.push_back(std::clamp<int64_t>(static_cast<int64_t>(f) + 1, 0, in - 1));
    t.w.push_back(x - f);
  }
  return t;
}

std::vector<Tensor> kernel_resize(const std::vector<const Tensor*>& in, const Attrs& attrs,
                                  const std::vector<TensorType>& out) {
  const Shape& s = in[0]->shape();
  ResizePlan p = resize_plan(in[0]->type(), attrs);
  size_t rank = s.size();
  std::vector<AxisTable> tables;
  for (size_t a = 2; a < rank; ++a) tables.push_back(axis_table(s[a], p.out[a], p));
  std::vector<double> x = read_doubles(*in[0]);
  std::vector<int64_t> strides(rank, 1), at;
  for (size_t a = rank - 1; a > 0; --a) strides[a - 1] = strides[a] * s[a];
  size_t spatial = tables.size();
  std::vector<double> y(static_cast<size_t>(numel(p.out)));
  for (int64_t k = 0; k < static_cast<int64_t>(y.size()); ++k) {
    unravel(k, p.out, at);
    int64_t base = at[0] * strides[0] + at[1] * strides[1];
    double sum = 0.0;
    // Every corner of the 2^spatial neighbourhood, weighted by the product of its axes' weights.
    for (size_t corner = 0; corner < (size_t{1} << spatial); ++corner) {
      double weight = 1.0;
      int64_t offset = base;
      for (size_t a = 0; a < spatial; ++a) {
        const AxisTable& t = tables[a];
        int64_t o = at[a + 2];
        bool high = (corner >> a) & 1;
        weight *= high ? t.w[o] : 1.0 - t.w[o];
        offset += (high ? t.hi[o] : t.lo[o]) * strides[a + 2];
      }
      if (weight != 0.0) sum += weight * x[offset];
    }
    y[k] = sum;
  }
  return {tensor_from(out[0], y)};
}

OpDef resize_op() {
  OpDef op;
  op.name = "resize";
  op.doc =
      "Resize of x [N,C,D...] (1 to 3 spatial axes) to `sizes` (N and C kept), nearest or "
      "linear, as ONNX Resize-13 with sizes given (no roi, no scales).";
  op.input_names = {"x"};
  op.attrs = {
      {"sizes", AttrKind::Ints, std::nullopt, true,
       "the output shape; its batch and channel extents are x's"},
      {"mode", AttrKind::String, AttrValue{std::string("nearest")}, false,
       "\"nearest\" or \"linear\""},
      {"coordinate_transformation_mode", AttrKind::String, AttrValue{std::string("half_pixel")},
       false,
       "how an output position maps to the input: \"half_pixel\", \"pytorch_half_pixel\", "
       "\"align_corners\" or \"asymmetric\""},
      {"nearest_mode", AttrKind::String, AttrValue{std::string("round_prefer_floor")}, false,
       "nearest's rounding: \"round_prefer_floor\", \"round_prefer_ceil\", \"floor\" or "
       "\"ceil\""},
  };
  op.infer = [](const std::vector<TensorType>& in, const Attrs& attrs, size_t) {
    return std::vector<TensorType>{{in[0].dtype, resize_plan(in[0], attrs).out}};
  };
  op.kernel = kernel_resize;
  op.onnx = {"Resize", 13, {{"sizes", 3, OnnxAttrInput::Form::I64List}}};
  // A linear weight times an infinity is NaN where the weight is 0 in one runtime's formula and
  // not in another's.
  op.input_domains = {ValueDomain::Finite};
  op.tags = {"resize"};
  return op;
}

}  // namespace

void register_resize_op(OpRegistry& r) {
  r.add(resize_op());
}

}  // namespace retort
