// The sliding-window arithmetic shared by conv and the pools: how the ONNX attributes kernel_shape,
// strides, dilations, pads, auto_pad and ceil_mode turn an input's spatial extent into window
// positions and an output extent.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/ops/attrs.h"
#include "core/ops/op_def.h"

namespace retort {

// One entry per spatial dimension.
struct Window {
  std::vector<int64_t> in, out, kernel, strides, dilations, pad_begin, pad_end;

  size_t rank() const { return in.size(); }
  // The same window with unit dimensions (extent 1, kernel 1, no padding) put in front until it
  // has `rank` spatial dimensions, so that kernels can run one fixed-depth loop nest.
  Window lifted_to(size_t rank) const;
};

// The window attributes every windowed op declares (strides, pads, auto_pad; dilations and
// ceil_mode when with_dilations / with_ceil_mode), with ONNX names and defaults.
std::vector<AttrSpec> window_attr_specs(bool with_dilations, bool with_ceil_mode);

// Resolves the window of an op over input spatial extents `in` with the given kernel extents,
// reading strides, dilations, pads, auto_pad and ceil_mode from attrs (absent ones take the ONNX
// defaults). Throws Error on malformed attributes or a window that does not fit.
Window resolve_window(const std::vector<int64_t>& in, const std::vector<int64_t>& kernel,
                      const Attrs& attrs);

// The window positions along one lifted spatial axis. Tap t of output position o reads input
// coordinate o*stride - pad_begin + t*dilation; since that grows with t, the taps inside the input
// form one range [lo, hi), so the kernels loop over it without a bounds test per tap.
struct AxisTaps {
  int64_t out = 1, kernel = 1;
  std::vector<int64_t> coord;   // [o * kernel + t]
  std::vector<int64_t> lo, hi;  // [o]: the taps inside [0, in)
  std::vector<int64_t> padded;  // [o]: how many taps fall inside [-pad_begin, in + pad_end)
};
AxisTaps axis_taps(const Window& w, size_t i);

// ConvTranspose's geometry over input spatial extents `in` (explicit pads only; auto_pad and
// output_shape are not modelled): input position i and tap t write output coordinate
// i * stride - pad_begin + t * dilation, and
// out = stride * (in - 1) + output_padding + (kernel - 1) * dilation + 1 - pad_begin - pad_end.
// Throws Error on malformed attributes, an output_padding not below its stride or dilation
// (there it would name no new position), or an empty output.
struct TransposedWindow {
  std::vector<int64_t> in, out, kernel, strides, dilations, pad_begin, pad_end, output_padding;
};
TransposedWindow resolve_transposed_window(const std::vector<int64_t>& in,
                                           const std::vector<int64_t>& kernel, const Attrs& attrs);

// The input spatial dims of an N x C x D1 x ... tensor.
std::vector<int64_t> spatial_dims(const Shape& s);

}  // namespace retort
