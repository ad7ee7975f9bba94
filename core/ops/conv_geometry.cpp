#include "core/ops/conv_geometry.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/base/error.h"
#include "core/ops/infer_rules.h"

namespace retort {

Window Window::lifted_to(size_t r) const {
  Window w = *this;
  size_t extra = r > rank() ? r - rank() : 0;
  auto lift = [extra](std::vector<int64_t>& v, int64_t fill) { v.insert(v.begin(), extra, fill); };
  lift(w.in, 1);
  lift(w.out, 1);
  lift(w.kernel, 1);
  lift(w.strides, 1);
  lift(w.dilations, 1);
  lift(w.pad_begin, 0);
  lift(w.pad_end, 0);
  return w;
}

std::vector<AttrSpec> window_attr_specs(bool with_dilations, bool with_ceil_mode) {
  std::vector<AttrSpec> specs = {
      {"auto_pad", AttrKind::String, AttrValue{std::string("NOTSET")}, false,
       "NOTSET (use pads), SAME_UPPER, SAME_LOWER or VALID"},
      {"pads", AttrKind::Ints, std::nullopt, false,
       "padding [x1_begin, x2_begin, ..., x1_end, x2_end, ...]; absent: no padding"},
      {"strides", AttrKind::Ints, std::nullopt, false, "step per spatial axis; absent: all 1"},
  };
  if (with_dilations)
    specs.push_back({"dilations", AttrKind::Ints, std::nullopt, false,
                     "gap between window elements per spatial axis; absent: all 1"});
  if (with_ceil_mode)
    specs.push_back({"ceil_mode", AttrKind::Int, AttrValue{int64_t{0}}, false,
                     "1: round the output extent up instead of down"});
  return specs;
}

std::vector<int64_t> spatial_dims(const Shape& s) {
  return s.size() > 2 ? std::vector<int64_t>(s.begin() + 2, s.end()) : std::vector<int64_t>{};
}

namespace {
std::vector<int64_t> per_axis(const Attrs& attrs, const std::string& name, size_t n, int64_t fill,
                              int64_t min_value) {
  if (!has_attr(attrs, name)) return std::vector<int64_t>(n, fill);
  const auto& v = attr_ints(attrs, name);
  if (v.size() != n)
    fail("attribute '{}' needs {} values (one per spatial axis), got [{}]", name, n,
         fmt::join(v, ","));
  for (int64_t x : v)
    if (x < min_value)
      fail("attribute '{}' values must be >= {}, got [{}]", name, min_value, fmt::join(v, ","));
  return v;
}

int64_t div_floor(int64_t a, int64_t b) {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}
int64_t div_ceil(int64_t a, int64_t b) {
  return -div_floor(-a, b);
}
}  // namespace

TransposedWindow resolve_transposed_window(const std::vector<int64_t>& in,
                                           const std::vector<int64_t>& kernel, const Attrs& attrs) {
  size_t n = in.size();
  TransposedWindow w{in,
                     {},
                     kernel,
                     per_axis(attrs, "strides", n, 1, 1),
                     per_axis(attrs, "dilations", n, 1, 1),
                     {},
                     {},
                     per_axis(attrs, "output_padding", n, 0, 0)};
  std::vector<int64_t> pads = std::vector<int64_t>(2 * n, 0);
  if (has_attr(attrs, "pads")) {
    pads = attr_ints(attrs, "pads");
    if (pads.size() != 2 * n)
      fail("attribute 'pads' needs {} values (begin and end per spatial axis), got [{}]", 2 * n,
           fmt::join(pads, ","));
    for (int64_t p : pads)
      if (p < 0) fail("attribute 'pads' values must be >= 0, got [{}]", fmt::join(pads, ","));
  }
  for (size_t i = 0; i < n; ++i) {
    int64_t s = w.strides[i], d = w.dilations[i], op = w.output_padding[i];
    // PyTorch allows output_padding below max(stride, dilation), but ONNX does not say, and ONNX
    // Runtime and onnx.reference both refuse any at or above the stride.
    if (op >= s) fail("output_padding {} on spatial axis {} must be below its stride {}", op, i, s);
    w.pad_begin.push_back(pads[i]);
    w.pad_end.push_back(pads[n + i]);
    int64_t span = checked_add(checked_mul(kernel[i] - 1, d), 1);
    int64_t out =
        checked_add(checked_add(checked_mul(s, in[i] - 1), op), span) - pads[i] - pads[n + i];
    if (in[i] < 1 || out < 1)
      fail("conv_transpose output extent {} on spatial axis {} (input {}, kernel {}) is empty", out,
           i, in[i], kernel[i]);
    w.out.push_back(out);
  }
  return w;
}

Window resolve_window(const std::vector<int64_t>& in, const std::vector<int64_t>& kernel,
                      const Attrs& attrs) {
  size_t n = in.size();
  Window w;
  w.in = in;
  w.kernel = kernel;
  if (kernel.size() != n) fail("kernel has {} spatial axes but the input has {}", kernel.size(), n);
  for (int64_t k : kernel)
    if (k < 1) fail("kernel extents must be >= 1, got [{}]", fmt::join(kernel, ","));
  w.strides = per_axis(attrs, "strides", n, 1, 1);
  w.dilations = per_axis(attrs, "dilations", n, 1, 1);
  std::string auto_pad = has_attr(attrs, "auto_pad") ? attr_string(attrs, "auto_pad") : "NOTSET";
  bool ceil_mode = has_attr(attrs, "ceil_mode") && attr_int(attrs, "ceil_mode") != 0;
  w.pad_begin.assign(n, 0);
  w.pad_end.assign(n, 0);
  w.out.assign(n, 0);
  if (auto_pad == "NOTSET") {
    std::vector<int64_t> pads = per_axis(attrs, "pads", 2 * n, 0, 0);
    std::copy(pads.begin(), pads.begin() + n, w.pad_begin.begin());
    std::copy(pads.begin() + n, pads.end(), w.pad_end.begin());
  } else if (auto_pad != "SAME_UPPER" && auto_pad != "SAME_LOWER" && auto_pad != "VALID") {
    fail("auto_pad must be NOTSET, SAME_UPPER, SAME_LOWER or VALID, got '{}'", auto_pad);
  } else if (has_attr(attrs, "pads")) {
    // ONNX: explicit pads "cannot be used simultaneously with auto_pad". Compilers disagree on
    // such a model (ONNX Runtime rejects or honours the pads), so it is no test of them.
    std::vector<int64_t> pads = per_axis(attrs, "pads", 2 * n, 0, 0);
    if (std::any_of(pads.begin(), pads.end(), [](int64_t p) { return p != 0; }))
      fail("pads [{}] cannot be given with auto_pad={} (ONNX forbids both)", fmt::join(pads, ","),
           auto_pad);
  }
  for (size_t i = 0; i < n; ++i) {
    // Attribute values are user data: the window arithmetic must not overflow.
    int64_t span = checked_add(checked_mul(w.kernel[i] - 1, w.dilations[i]), 1);
    int64_t s = w.strides[i];
    if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
      w.out[i] = div_ceil(in[i], s);
      int64_t total = std::max<int64_t>(0, checked_add((w.out[i] - 1) * s, span) - in[i]);
      int64_t small = total / 2;
      w.pad_begin[i] = auto_pad == "SAME_UPPER" ? small : total - small;
      w.pad_end[i] = total - w.pad_begin[i];
      continue;
    }
    int64_t room = checked_add(in[i], checked_add(w.pad_begin[i], w.pad_end[i])) - span;
    if (room < 0)
      fail(
          "window of extent {} (kernel {}, dilation {}) does not fit spatial axis {} of extent "
          "{} with padding {}+{}",
          span, w.kernel[i], w.dilations[i], i, in[i], w.pad_begin[i], w.pad_end[i]);
    if (ceil_mode && auto_pad == "NOTSET") {
      w.out[i] = div_ceil(room, s) + 1;
      // A window that would start past the input and its leading padding is dropped.
      if ((w.out[i] - 1) * s >= in[i] + w.pad_begin[i]) --w.out[i];
    } else {
      w.out[i] = room / s + 1;
    }
  }
  return w;
}

AxisTaps axis_taps(const Window& w, size_t i) {
  AxisTaps a{w.out[i], w.kernel[i], {}, {}, {}, {}};
  a.coord.resize(static_cast<size_t>(a.out * a.kernel));
  a.lo.assign(static_cast<size_t>(a.out), 0);
  a.hi.assign(static_cast<size_t>(a.out), 0);
  a.padded.assign(static_cast<size_t>(a.out), 0);
  for (int64_t o = 0; o < a.out; ++o) {
    bool seen = false;
    for (int64_t t = 0; t < a.kernel; ++t) {
      int64_t c = o * w.strides[i] - w.pad_begin[i] + t * w.dilations[i];
      a.coord[o * a.kernel + t] = c;
      if (c >= -w.pad_begin[i] && c < w.in[i] + w.pad_end[i]) ++a.padded[o];
      if (c < 0 || c >= w.in[i]) continue;
      if (!seen) a.lo[o] = t;
      seen = true;
      a.hi[o] = t + 1;
    }
  }
  return a;
}

}  // namespace retort
