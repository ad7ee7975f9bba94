// Convolution and pooling over N x C x D1 [x D2 [x D3]] tensors.
#include <algorithm>
#include <cmath>
#include <memory>

#include "core/base/error.h"
#include "core/ops/conv_geometry.h"
#include "core/ops/conv_kernel.h"
#include "core/ops/element_values.h"
#include "core/ops/index_space.h"
#include "core/ops/infer_rules.h"
#include "core/ops/prepared_kernels.h"
#include "core/ops/registry.h"
#include "core/ops/scalar_math.h"

namespace retort {

namespace {

constexpr std::initializer_list<DType> kFloatTypes = {DType::f16, DType::f32, DType::f64};
// The kernels run one 3-deep loop nest; 1-D and 2-D windows are lifted to it.
constexpr size_t kLoopRank = 3;

void require_image(const TensorType& x, const char* op) {
  require_rank(x, 3, 2 + static_cast<int64_t>(kLoopRank), fmt::format("{} input 'x'", op));
}

// --- conv ----------------------------------------------------------------------------------

struct ConvDims {
  int64_t n, c, m, group;
  Window window;
};

ConvDims conv_dims(const std::vector<TensorType>& in, const Attrs& attrs) {
  const TensorType &x = in[0], &w = in[1];
  require_image(x, "conv");
  require_dtype(x, kFloatTypes, "conv input 'x'");
  if (w.dtype != x.dtype)
    fail("conv weight 'w' must be {} like x, got {}", dtype_name(x.dtype), w.str());
  if (w.shape.size() != x.shape.size())
    fail("conv weight 'w' {} must have the rank of x {}", w.str(), x.str());
  ConvDims d{x.shape[0], x.shape[1], w.shape[0], attr_int(attrs, "group"), {}};
  if (d.group < 1) fail("conv group must be >= 1, got {}", d.group);
  if (d.c % d.group != 0 || w.shape[1] * d.group != d.c)
    fail("conv with group {} needs x channels {} = group * w.shape[1] (w {})", d.group, d.c,
         w.str());
  if (d.m % d.group != 0)
    fail("conv with group {} needs the {} filters of w {} to split evenly", d.group, d.m, w.str());
  std::vector<int64_t> kernel = spatial_dims(w.shape);
  if (has_attr(attrs, "kernel_shape") && attr_ints(attrs, "kernel_shape") != kernel)
    fail("conv kernel_shape {} differs from the spatial extents of w {}",
         shape_str(attr_ints(attrs, "kernel_shape")), w.str());
  if (in.size() > 2) {
    const TensorType& b = in[2];
    if (b.dtype != x.dtype || b.shape != Shape{d.m})
      fail("conv bias 'b' must be {}[{}], got {}", dtype_name(x.dtype), d.m, b.str());
  }
  d.window = resolve_window(spatial_dims(x.shape), kernel, attrs);
  return d;
}

std::vector<TensorType> infer_conv(const std::vector<TensorType>& in, const Attrs& attrs, size_t) {
  ConvDims d = conv_dims(in, attrs);
  Shape out{d.n, d.m};
  out.insert(out.end(), d.window.out.begin(), d.window.out.end());
  return {{in[0].dtype, out}};
}

}  // namespace

// The conv kernel bound to one node: the window's tap tables built once, and the weights and
// bias converted (and packed) once when they are constants of the graph.
PreparedKernelFn prepare_conv(const std::vector<const Tensor*>& constants,
                              const std::vector<TensorType>& in, const Attrs& attrs,
                              const std::vector<TensorType>& out) {
  // A trailing omitted bias is left out of `in` (input_types), as kernel_conv leaves it out.
  std::vector<TensorType> types(in.begin(), in.begin() + std::min<size_t>(in.size(), 3));
  ConvDims d = conv_dims(types, attrs);
  auto kernel = std::make_shared<const ConvKernel>(
      d.n, d.c, d.m, d.group, d.window.lifted_to(kLoopRank), types[0].dtype != DType::f64);
  auto constant = [&](size_t i) { return i < constants.size() ? constants[i] : nullptr; };
  bool has_bias = types.size() > 2;
  std::shared_ptr<const ConvKernel::PackedFilters> packed;
  std::shared_ptr<const std::vector<double>> bias;
  if (constant(1))
    packed = std::make_shared<ConvKernel::PackedFilters>(kernel->pack(read_doubles(*constant(1))));
  if (!has_bias)
    bias = std::make_shared<std::vector<double>>(d.m, 0.0);
  else if (constant(2))
    bias = std::make_shared<std::vector<double>>(read_doubles(*constant(2)));
  TensorType y = out[0];
  return [kernel, packed, bias, y](const std::vector<const Tensor*>& in) {
    std::vector<double> x = read_doubles(*in[0]);
    ConvKernel::PackedFilters run_packed;
    std::vector<double> run_bias;
    if (!packed) run_packed = kernel->pack(read_doubles(*in[1]));
    if (!bias) run_bias = read_doubles(*in[2]);
    return std::vector<Tensor>{
        tensor_from(y, kernel->run(x, packed ? *packed : run_packed, bias ? *bias : run_bias))};
  };
}

namespace {

std::vector<Tensor> kernel_conv(const std::vector<const Tensor*>& in, const Attrs& attrs,
                                const std::vector<TensorType>& out) {
  std::vector<TensorType> types{in[0]->type(), in[1]->type()};
  if (in.size() > 2 && in[2]) types.push_back(in[2]->type());
  return prepare_conv({}, types, attrs, out)(in);
}

OpDef conv_op() {
  OpDef op;
  op.name = "conv";
  op.doc =
      "N-D convolution (1 to 3 spatial axes) of x [N,C,D...] with weights w [M,C/group,K...] "
      "and optional bias b [M]; strides, pads, dilations, auto_pad as in ONNX.";
  op.input_names = {"x", "w", "b"};
  op.min_inputs = 2;
  op.max_inputs = 3;
  op.attrs = window_attr_specs(true, false);
  op.attrs.push_back(
      {"group", AttrKind::Int, AttrValue{int64_t{1}}, false, "number of channel groups"});
  op.attrs.push_back({"kernel_shape", AttrKind::Ints, std::nullopt, false,
                      "spatial extents of w (checked when given)"});
  op.infer = infer_conv;
  op.kernel = kernel_conv;
  op.onnx = {"Conv", 11, {}};
  op.tags = {"conv", "accumulates"};
  return op;
}

// --- conv_transpose ------------------------------------------------------------------------

struct ConvTransposeDims {
  int64_t n, c, m, group;
  TransposedWindow window;
};

// x [N, C, D...], w [C, M/group, K...], b [M]: ConvTranspose's layout, w's first axis the input
// channels.
ConvTransposeDims conv_transpose_dims(const std::vector<TensorType>& in, const Attrs& attrs) {
  const TensorType &x = in[0], &w = in[1];
  require_image(x, "conv_transpose");
  require_dtype(x, kFloatTypes, "conv_transpose input 'x'");
  if (w.dtype != x.dtype)
    fail("conv_transpose weight 'w' must be {} like x, got {}", dtype_name(x.dtype), w.str());
  if (w.shape.size() != x.shape.size())
    fail("conv_transpose weight 'w' {} must have the rank of x {}", w.str(), x.str());
  int64_t group = attr_int(attrs, "group");
  if (group < 1) fail("conv_transpose group must be >= 1, got {}", group);
  if (w.shape[0] != x.shape[1] || x.shape[1] % group != 0)
    fail("conv_transpose needs w.shape[0] = the channels of x {}, a multiple of group {} (w {})",
         x.shape[1], group, w.str());
  ConvTransposeDims d{x.shape[0], x.shape[1], w.shape[1] * group, group, {}};
  std::vector<int64_t> kernel = spatial_dims(w.shape);
  if (has_attr(attrs, "kernel_shape") && attr_ints(attrs, "kernel_shape") != kernel)
    fail("conv_transpose kernel_shape {} differs from the spatial extents of w {}",
         shape_str(attr_ints(attrs, "kernel_shape")), w.str());
  if (in.size() > 2 && (in[2].dtype != x.dtype || in[2].shape != Shape{d.m}))
    fail("conv_transpose bias 'b' must be {}[{}], got {}", dtype_name(x.dtype), d.m, in[2].str());
  d.window = resolve_transposed_window(spatial_dims(x.shape), kernel, attrs);
  return d;
}

std::vector<TensorType> infer_conv_transpose(const std::vector<TensorType>& in, const Attrs& attrs,
                                             size_t) {
  ConvTransposeDims d = conv_transpose_dims(in, attrs);
  Shape out{d.n, d.m};
  out.insert(out.end(), d.window.out.begin(), d.window.out.end());
  return {{in[0].dtype, out}};
}

// Each output element is 0.0 plus its products in the order (input channel, input position, tap),
// in double, plus the bias: the input position and tap whose coordinate
// i * stride - pad_begin + t * dilation is the output's.
std::vector<Tensor> kernel_conv_transpose(const std::vector<const Tensor*>& in, const Attrs& attrs,
                                          const std::vector<TensorType>& out) {
  std::vector<TensorType> types = types_of(in);
  ConvTransposeDims d = conv_transpose_dims(types, attrs);
  const TransposedWindow& win = d.window;
  std::vector<double> x = read_doubles(*in[0]), w = read_doubles(*in[1]);
  std::vector<double> b = in.size() > 2 ? read_doubles(*in[2]) : std::vector<double>(d.m, 0.0);
  Shape in_shape = win.in, kernel_shape = win.kernel;
  int64_t in_size = numel(in_shape), taps = numel(kernel_shape), out_size = numel(win.out);
  int64_t c_per_group = d.c / d.group, m_per_group = d.m / d.group;
  std::vector<int64_t> at, tap;
  std::vector<double> y(static_cast<size_t>(d.n * d.m * out_size), 0.0);
  for (int64_t n = 0; n < d.n; ++n)
    for (int64_t c = 0; c < d.c; ++c)
      for (int64_t i = 0; i < in_size; ++i) {
        unravel(i, in_shape, at);
        double xv = x[(n * d.c + c) * in_size + i];
        for (int64_t t = 0; t < taps; ++t) {
          unravel(t, kernel_shape, tap);
          int64_t o = 0;
          bool inside = true;
          for (size_t a = 0; a < at.size() && inside; ++a) {
            int64_t coord = at[a] * win.strides[a] - win.pad_begin[a] + tap[a] * win.dilations[a];
            inside = coord >= 0 && coord < win.out[a];
            o = o * win.out[a] + coord;
          }
          if (!inside) continue;
          for (int64_t mm = 0; mm < m_per_group; ++mm) {
            int64_t m = c / c_per_group * m_per_group + mm;
            y[(n * d.m + m) * out_size + o] += xv * w[(c * m_per_group + mm) * taps + t];
          }
        }
      }
  for (size_t k = 0; k < y.size(); ++k) y[k] += b[(k / out_size) % d.m];
  return {tensor_from(out[0], y)};
}

OpDef conv_transpose_op() {
  OpDef op;
  op.name = "conv_transpose";
  op.doc =
      "N-D transposed convolution (1 to 3 spatial axes) of x [N,C,D...] with weights "
      "w [C,M/group,K...] and optional bias b [M]; strides, pads, dilations, group, "
      "output_padding as in ONNX (explicit pads only).";
  op.input_names = {"x", "w", "b"};
  op.min_inputs = 2;
  op.max_inputs = 3;
  op.attrs = {
      {"pads", AttrKind::Ints, std::nullopt, false,
       "output cropping [x1_begin, ..., x1_end, ...]; absent: none"},
      {"strides", AttrKind::Ints, std::nullopt, false, "step per spatial axis; absent: all 1"},
      {"dilations", AttrKind::Ints, std::nullopt, false,
       "gap between kernel elements per spatial axis; absent: all 1"},
      {"output_padding", AttrKind::Ints, std::nullopt, false,
       "extra output positions at the end of each spatial axis, below its stride"},
      {"group", AttrKind::Int, AttrValue{int64_t{1}}, false, "number of channel groups"},
      {"kernel_shape", AttrKind::Ints, std::nullopt, false,
       "spatial extents of w (checked when given)"},
  };
  op.infer = infer_conv_transpose;
  op.kernel = kernel_conv_transpose;
  op.onnx = {"ConvTranspose", 11, {}};
  op.tags = {"conv", "accumulates"};
  return op;
}

// --- max_pool and average_pool -----------------------------------------------------------------

Window pool_window(const TensorType& x, const Attrs& attrs, const char* op) {
  require_image(x, op);
  return resolve_window(spatial_dims(x.shape), attr_ints(attrs, "kernel_shape"), attrs);
}

std::vector<TensorType> pool_output(const TensorType& x, const Window& w) {
  Shape out{x.shape[0], x.shape[1]};
  out.insert(out.end(), w.out.begin(), w.out.end());
  return {{x.dtype, out}};
}

// Folds every window with `visit(value)` after `start()`, then stores `finish(inside, padded)`
// where `inside` counts the taps inside the input and `padded` those inside the padded extent.
template <typename Fold>
std::vector<double> pool(const Tensor& xt, const Window& window, Fold fold) {
  Window w = window.lifted_to(kLoopRank);
  AxisTaps ax[kLoopRank] = {axis_taps(w, 0), axis_taps(w, 1), axis_taps(w, 2)};
  std::vector<double> x = read_doubles(xt);
  int64_t planes = xt.shape()[0] * xt.shape()[1];
  int64_t in0 = w.in[0], in1 = w.in[1], in2 = w.in[2];
  int64_t k0 = w.kernel[0], k1 = w.kernel[1], k2 = w.kernel[2];
  int64_t img = in0 * in1 * in2;
  std::vector<double> y(static_cast<size_t>(planes * ax[0].out * ax[1].out * ax[2].out));
  double* py = y.data();
  for (int64_t p = 0; p < planes; ++p) {
    const double* xp = x.data() + p * img;
    for (int64_t o0 = 0; o0 < ax[0].out; ++o0)
      for (int64_t o1 = 0; o1 < ax[1].out; ++o1)
        for (int64_t o2 = 0; o2 < ax[2].out; ++o2) {
          auto state = fold.start();
          for (int64_t t0 = ax[0].lo[o0]; t0 < ax[0].hi[o0]; ++t0) {
            int64_t i0 = ax[0].coord[o0 * k0 + t0];
            for (int64_t t1 = ax[1].lo[o1]; t1 < ax[1].hi[o1]; ++t1) {
              const double* xrow = xp + (i0 * in1 + ax[1].coord[o1 * k1 + t1]) * in2;
              const int64_t* c2 = ax[2].coord.data() + o2 * k2;
              for (int64_t t2 = ax[2].lo[o2]; t2 < ax[2].hi[o2]; ++t2)
                fold.visit(state, xrow[c2[t2]]);
            }
          }
          int64_t inside = (ax[0].hi[o0] - ax[0].lo[o0]) * (ax[1].hi[o1] - ax[1].lo[o1]) *
                           (ax[2].hi[o2] - ax[2].lo[o2]);
          int64_t in_pad = ax[0].padded[o0] * ax[1].padded[o1] * ax[2].padded[o2];
          *py++ = fold.finish(state, inside, in_pad);
        }
  }
  return y;
}

// The largest value (NaN if any tap is NaN); a window with no tap inside the input gives the
// dtype's lowest value, like an empty reduce_max.
struct MaxFold {
  double lowest;
  double start() const { return lowest; }
  void visit(double& s, double v) const { s = nan_max(s, v); }
  double finish(double s, int64_t, int64_t) const { return s; }
};

struct MeanFold {
  bool count_pad;
  double start() const { return 0.0; }
  void visit(double& s, double v) const { s += v; }
  double finish(double s, int64_t inside, int64_t padded) const {
    return s / static_cast<double>(count_pad ? padded : inside);
  }
};

std::vector<TensorType> infer_max_pool(const std::vector<TensorType>& in, const Attrs& attrs,
                                       size_t) {
  require_dtype(in[0], {DType::f16, DType::f32, DType::f64, DType::i8, DType::u8},
                "max_pool input 'x'");
  int64_t order = attr_int(attrs, "storage_order");
  if (order != 0 && order != 1) fail("max_pool storage_order must be 0 or 1, got {}", order);
  return pool_output(in[0], pool_window(in[0], attrs, "max_pool"));
}

std::vector<Tensor> kernel_max_pool(const std::vector<const Tensor*>& in, const Attrs& attrs,
                                    const std::vector<TensorType>& out) {
  Window w = pool_window(in[0]->type(), attrs, "max_pool");
  return {tensor_from(out[0], pool(*in[0], w, MaxFold{lowest_of<double>(in[0]->dtype())}))};
}

std::vector<AttrSpec> pool_attr_specs(bool max_pool) {
  std::vector<AttrSpec> specs = window_attr_specs(max_pool, true);
  specs.push_back(
      {"kernel_shape", AttrKind::Ints, std::nullopt, true, "window extent per spatial axis"});
  if (max_pool)
    specs.push_back({"storage_order", AttrKind::Int, AttrValue{int64_t{0}}, false,
                     "layout of the (unsupported) Indices output; no effect on y"});
  else
    specs.push_back({"count_include_pad", AttrKind::Int, AttrValue{int64_t{0}}, false,
                     "1: padded positions count in the divisor"});
  return specs;
}

OpDef max_pool_op() {
  OpDef op;
  op.name = "max_pool";
  op.doc =
      "Maximum over sliding windows of x [N,C,D...] (1 to 3 spatial axes); padding never "
      "wins, NaN propagates. Only the output y (no Indices).";
  op.input_names = {"x"};
  op.attrs = pool_attr_specs(true);
  op.infer = infer_max_pool;
  op.kernel = kernel_max_pool;
  op.onnx = {"MaxPool", 12, {}};
  op.input_domains = {ValueDomain::NotNaN};  // whether NaN wins is left open (docs/ops/nn.md)
  op.tags = {"pool"};
  return op;
}

std::vector<TensorType> infer_average_pool(const std::vector<TensorType>& in, const Attrs& attrs,
                                           size_t) {
  require_dtype(in[0], kFloatTypes, "average_pool input 'x'");
  return pool_output(in[0], pool_window(in[0], attrs, "average_pool"));
}

std::vector<Tensor> kernel_average_pool(const std::vector<const Tensor*>& in, const Attrs& attrs,
                                        const std::vector<TensorType>& out) {
  Window w = pool_window(in[0]->type(), attrs, "average_pool");
  MeanFold fold{attr_int(attrs, "count_include_pad") != 0};
  return {tensor_from(out[0], pool(*in[0], w, fold))};
}

OpDef average_pool_op() {
  OpDef op;
  op.name = "average_pool";
  op.doc =
      "Mean over sliding windows of x [N,C,D...] (1 to 3 spatial axes); the divisor counts "
      "padding only with count_include_pad=1.";
  op.input_names = {"x"};
  op.attrs = pool_attr_specs(false);
  op.infer = infer_average_pool;
  op.kernel = kernel_average_pool;
  op.onnx = {"AveragePool", 11, {}};
  op.tags = {"pool", "averages"};
  return op;
}

// --- global pools ------------------------------------------------------------------------------

std::vector<TensorType> infer_global_pool(const std::vector<TensorType>& in, const char* op) {
  require_rank(in[0], 3, static_cast<int64_t>(kMaxRank), fmt::format("{} input 'x'", op));
  require_dtype(in[0], kFloatTypes, fmt::format("{} input 'x'", op));
  Shape out = in[0].shape;
  for (size_t i = 2; i < out.size(); ++i) out[i] = 1;
  return {{in[0].dtype, out}};
}

// Folds each N x C plane of x (its spatial elements are contiguous) into one value.
template <typename Fold>
std::vector<double> fold_planes(const Tensor& xt, Fold fold) {
  std::vector<double> x = read_doubles(xt);
  int64_t planes = xt.shape()[0] * xt.shape()[1];
  int64_t size = planes == 0 ? 0 : xt.numel() / planes;
  std::vector<double> y(static_cast<size_t>(planes));
  for (int64_t p = 0; p < planes; ++p) {
    auto s = fold.start();
    for (int64_t i = 0; i < size; ++i) fold.visit(s, x[p * size + i]);
    y[p] = fold.finish(s, size, size);
  }
  return y;
}

OpDef global_pool_op(bool max) {
  OpDef op;
  op.name = max ? "global_max_pool" : "global_average_pool";
  op.doc = max ? "Maximum over all spatial axes of x [N,C,D...], keeping them as extent 1."
               : "Mean over all spatial axes of x [N,C,D...], keeping them as extent 1.";
  op.input_names = {"x"};
  if (max) op.input_domains = {ValueDomain::NotNaN};
  std::string name = op.name;
  op.infer = [name](const std::vector<TensorType>& in, const Attrs&, size_t) {
    return infer_global_pool(in, name.c_str());
  };
  op.kernel = [max](const std::vector<const Tensor*>& in, const Attrs&,
                    const std::vector<TensorType>& out) {
    if (max)
      return std::vector<Tensor>{
          tensor_from(out[0], fold_planes(*in[0], MaxFold{lowest_of<double>(in[0]->dtype())}))};
    return std::vector<Tensor>{tensor_from(out[0], fold_planes(*in[0], MeanFold{false}))};
  };
  op.onnx = {max ? "GlobalMaxPool" : "GlobalAveragePool", 1, {}};
  op.tags = {"pool"};
  if (!max) op.tags.push_back("averages");
  return op;
}

}  // namespace

void register_conv_pool_ops(OpRegistry& r) {
  r.add(conv_op());
  r.add(conv_transpose_op());
  r.add(max_pool_op());
  r.add(average_pool_op());
  r.add(global_pool_op(false));
  r.add(global_pool_op(true));
}

}  // namespace retort
