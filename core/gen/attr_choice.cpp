#include "core/gen/attr_choice.h"

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>
#include <string>

#include "core/ops/index_space.h"
#include "core/tensor/random_tensor.h"

namespace retort {

namespace {

using Ints = std::vector<int64_t>;

// A size-0 dimension leaves some ranges empty (a slice start in [0, -1]): lo then.
int64_t pick(Rng& rng, int64_t lo, int64_t hi) {
  return hi < lo ? lo : rng.uniform_int(lo, hi);
}

const Shape& shape0(const NodeContext& ctx) {
  return ctx.inputs.at(0).shape;
}
int64_t rank0(const NodeContext& ctx) {
  return static_cast<int64_t>(shape0(ctx).size());
}
int64_t spatial_rank(const NodeContext& ctx) {
  return std::max<int64_t>(rank0(ctx) - 2, 0);
}

// Sometimes written counted from the end, as users do.
int64_t maybe_negative(int64_t axis, int64_t rank, Rng& rng) {
  return rng.coin(0.3) ? axis - rank : axis;
}

Ints distinct_axes(int64_t rank, int64_t count, Rng& rng) {
  Ints all(rank);
  std::iota(all.begin(), all.end(), 0);
  shuffle(rng, all);
  all.resize(count);
  for (int64_t& a : all) a = maybe_negative(a, rank, rng);
  return all;
}

AttrValue choose_axis(const NodeContext& ctx, Rng& rng) {
  int64_t r = std::max<int64_t>(rank0(ctx), 1);
  return maybe_negative(pick(rng, 0, r - 1), r, rng);
}

// Reduce-style axes, or for squeeze the size-1 dimensions; unsqueeze checks them against its
// larger output rank, where they are in range too.
AttrValue choose_axes(const NodeContext& ctx, Rng& rng) {
  const Shape& s = shape0(ctx);
  int64_t r = rank0(ctx);
  Ints ones;
  for (int64_t d = 0; d < r; ++d)
    if (s[d] == 1) ones.push_back(d);
  if (!ones.empty() && rng.coin(0.5)) {
    shuffle(rng, ones);
    ones.resize(pick(rng, 1, static_cast<int64_t>(ones.size())));
    return ones;
  }
  if (r == 0) return Ints{0};
  return distinct_axes(r, pick(rng, 1, r), rng);
}

AttrValue choose_perm(const NodeContext& ctx, Rng& rng) {
  Ints perm(rank0(ctx));
  std::iota(perm.begin(), perm.end(), 0);
  shuffle(rng, perm);
  return perm;
}

// Either a refactoring of the element count (reshape) or a broadcast target (expand).
AttrValue choose_target_shape(const NodeContext& ctx, Rng& rng) {
  const Shape& s = shape0(ctx);
  if (rng.coin(0.5)) {
    Shape out;
    for (int64_t d : s)
      out.push_back(d == 1 && rng.coin(0.6) ? pick(rng, 1, ctx.options.max_dim) : d);
    if (static_cast<int>(out.size()) < ctx.options.max_rank && rng.coin(0.3))
      out.insert(out.begin(), pick(rng, 1, 3));
    return out;
  }
  // Peel small prime factors off the element count into a random number of dimensions. A size-0
  // tensor keeps its shape: no count to factor, and -1 beside a 0 names no extent.
  int64_t n = numel(s);
  if (n == 0) return s;
  Shape out;
  int64_t dims = pick(rng, 1, ctx.options.max_rank);
  for (int64_t i = 0; i + 1 < dims; ++i) {
    Ints divisors;
    for (int64_t f = 1; f <= std::min<int64_t>(n, ctx.options.max_dim); ++f)
      if (n % f == 0) divisors.push_back(f);
    int64_t f = pick_from(rng, divisors);
    out.push_back(f);
    n /= f;
  }
  out.push_back(n);
  shuffle(rng, out);
  if (rng.coin(0.3)) out[pick(rng, 0, static_cast<int64_t>(out.size()) - 1)] = -1;
  return out;
}

AttrValue choose_repeats(const NodeContext& ctx, Rng& rng) {
  Ints reps;
  for (int64_t d = 0; d < rank0(ctx); ++d) reps.push_back(rng.coin(0.7) ? 1 : 2);
  return reps;
}

// Window pads are per spatial axis and non-negative; pad's are per axis and may crop.
AttrValue choose_pads(const NodeContext& ctx, Rng& rng) {
  Ints pads;
  if (ctx.op.find_attr("kernel_shape")) {
    for (int64_t i = 0; i < 2 * spatial_rank(ctx); ++i) pads.push_back(pick(rng, 0, 1));
    return pads;
  }
  for (int64_t i = 0; i < 2 * rank0(ctx); ++i)
    pads.push_back(rng.coin(0.15) ? -1 : pick(rng, 0, 2));
  return pads;
}

// Kernel extents that fit the spatial dimensions; a conv weight fixes them.
AttrValue choose_kernel(const NodeContext& ctx, Rng& rng) {
  // A weight of rank below 2 fixes nothing; inference rejects the node later.
  if (ctx.inputs.size() > 1 && ctx.op.input_names.size() > 1 && ctx.op.input_names[1] == "w" &&
      ctx.inputs[1].shape.size() >= 2)
    return Ints(ctx.inputs[1].shape.begin() + 2, ctx.inputs[1].shape.end());
  Ints k;
  for (int64_t d = 2; d < rank0(ctx); ++d)
    k.push_back(pick(rng, 1, std::min<int64_t>(3, shape0(ctx)[d])));
  return k;
}

AttrValue choose_per_spatial(const NodeContext& ctx, Rng& rng) {
  Ints v;
  for (int64_t i = 0; i < spatial_rank(ctx); ++i) v.push_back(pick(rng, 1, 2));
  return v;
}

// conv_transpose's weight is [C, M/group, K...]: its first axis holds x's channels.
bool transposed_conv(const OpDef& op) {
  return op.find_attr("output_padding") != nullptr;
}

// A random divisor of n (n >= 1).
int64_t pick_divisor(int64_t n, Rng& rng) {
  Ints divisors;
  for (int64_t g = 1; g <= n; ++g)
    if (n % g == 0) divisors.push_back(g);
  return pick_from(rng, divisors);
}

// Channels per group follow from the weight: group = C / w[1]. A conv_transpose's group is M / w[1]
// for its bias [M], else any divisor of C.
AttrValue choose_group(const NodeContext& ctx, Rng& rng) {
  if (ctx.inputs.size() < 2 || rank0(ctx) < 2 || ctx.inputs[1].shape.size() < 2 ||
      ctx.inputs[1].shape[1] < 1)
    return int64_t{1};
  if (!transposed_conv(ctx.op)) return shape0(ctx)[1] / ctx.inputs[1].shape[1];
  if (ctx.inputs.size() > 2 && ctx.inputs[2].shape.size() == 1)
    return ctx.inputs[2].shape[0] / ctx.inputs[1].shape[1];
  return shape0(ctx)[1] > 0 ? pick_divisor(shape0(ctx)[1], rng) : int64_t{1};
}

// ConvTranspose's extra output positions, 0 or 1 (infer refuses one not below the stride).
AttrValue choose_output_padding(const NodeContext& ctx, Rng& rng) {
  return Ints(static_cast<size_t>(spatial_rank(ctx)), rng.coin(0.5) ? 0 : 1);
}

// Split sizes: a random composition of the split axis into one positive part per output.
void choose_split(const NodeContext& ctx, Attrs& attrs, Rng& rng) {
  int64_t r = rank0(ctx);
  if (r == 0) return;
  int64_t axis = has_attr(attrs, "axis") ? attr_int(attrs, "axis") : 0;
  if (axis < -r || axis >= r) return;
  int64_t dim = shape0(ctx)[axis < 0 ? axis + r : axis];
  int64_t n = static_cast<int64_t>(ctx.num_outputs);
  if (dim < n) return;
  Ints cuts(dim - 1);
  std::iota(cuts.begin(), cuts.end(), 1);
  shuffle(rng, cuts);
  cuts.resize(n - 1);
  std::sort(cuts.begin(), cuts.end());
  Ints sizes;
  int64_t prev = 0;
  for (int64_t c : cuts) sizes.push_back(c - prev), prev = c;
  sizes.push_back(dim - prev);
  attrs["split"] = sizes;
}

// Slice bounds for a few distinct axes, chosen together so that every window is non-empty.
void choose_slice(const NodeContext& ctx, Attrs& attrs, Rng& rng) {
  const Shape& s = shape0(ctx);
  int64_t r = rank0(ctx);
  if (r == 0) return;
  Ints axes = distinct_axes(r, pick(rng, 1, r), rng), starts, ends, steps;
  for (int64_t a : axes) {
    int64_t dim = s[a < 0 ? a + r : a];
    int64_t step = rng.coin(0.25) ? -1 : pick(rng, 1, 2);
    int64_t start = pick(rng, 0, dim - 1);
    int64_t end = step > 0 ? pick(rng, start + 1, dim) : pick(rng, -1, start - 1);
    // A negative end would count from the back; INT64_MIN clamps to "before the first".
    if (end < 0) end = INT64_MIN;
    if (rng.coin(0.3) && start > 0) start -= dim;
    starts.push_back(start);
    ends.push_back(end);
    steps.push_back(step);
  }
  attrs["starts"] = starts;
  attrs["ends"] = ends;
  attrs["axes"] = axes;
  if (rng.coin(0.7) || std::any_of(steps.begin(), steps.end(), [](int64_t x) { return x != 1; }))
    attrs["steps"] = steps;
}

// An einsum equation over the inputs' ranks: dimensions of equal size may share a letter, and
// the output keeps a random subset of the letters.
AttrValue choose_equation(const NodeContext& ctx, Rng& rng) {
  std::map<char, int64_t> size_of;
  std::string eq;
  char next = 'a';
  for (size_t k = 0; k < ctx.inputs.size(); ++k) {
    if (k) eq += ',';
    std::string term;
    for (int64_t d : ctx.inputs[k].shape) {
      std::vector<char> same;
      for (auto [c, n] : size_of)
        if (n == d && term.find(c) == std::string::npos) same.push_back(c);
      char c = !same.empty() && rng.coin(0.6) ? pick_from(rng, same) : next++;
      size_of[c] = d;
      term += c;
    }
    eq += term;
  }
  std::string out;
  for (auto [c, n] : size_of)
    if (rng.coin(0.5)) out += c;
  shuffle(rng, out);
  return eq + "->" + out;
}

// The options a string attribute documents as quoted words ("constant", "reflect"...).
std::vector<std::string> quoted_words(const std::string& doc) {
  std::vector<std::string> words;
  size_t at = 0;
  while ((at = doc.find('"', at)) != std::string::npos) {
    size_t end = doc.find('"', at + 1);
    if (end == std::string::npos) break;
    words.push_back(doc.substr(at + 1, end - at - 1));
    at = end + 1;
  }
  return words;
}

std::optional<AttrValue> choose_by_kind(const AttrSpec& spec, const NodeContext& ctx, Rng& rng) {
  switch (spec.kind) {
    case AttrKind::Int: {
      int64_t def = spec.default_value ? std::get<int64_t>(*spec.default_value) : 0;
      // 0/1 defaults are flags (keepdims, transA, fmod...).
      if (def == 0 || def == 1) return int64_t{rng.coin(0.5)};
      return def + pick(rng, -1, 1);
    }
    case AttrKind::Float: {
      // Multiples of 1/8 print exactly in every format.
      double v = static_cast<double>(pick(rng, -16, 16)) / 8.0;
      if (spec.name == "epsilon") return std::abs(v) + 0.125;
      return v;
    }
    case AttrKind::String: {
      std::vector<std::string> words = quoted_words(spec.doc);
      if (words.empty()) return std::nullopt;
      return pick_from(rng, words);
    }
    case AttrKind::DType:
      return std::string(dtype_name(pick_from(rng, ctx.options.dtypes)));
    case AttrKind::Ints: {
      Ints v;
      for (int64_t d = 0; d < rank0(ctx); ++d) v.push_back(pick(rng, 0, 2));
      return v;
    }
    default:
      return std::nullopt;
  }
}

// ONNX defines a window's padding only in part; elsewhere compilers disagree or refuse, which
// says nothing about their correctness. So the generator keeps to what the spec defines:
//  - pads beside an auto_pad other than NOTSET are forbidden;
//  - SAME_* padding where the stride exceeds what the window covers implies a negative pad: the
//    stride is 1 on such an axis;
//  - a pool window that can lie wholly in the padding has no value (a max of nothing, an average
//    of none): a pool's pads stay below its kernel (ONNX Runtime refuses others);
//  - ceil_mode beside pads or auto_pad leaves open where the last window starts: it is dropped.
void keep_window_defined(const NodeContext& ctx, Attrs& attrs) {
  if (!has_attr(attrs, "kernel_shape") || rank0(ctx) < 3) return;
  const Ints& kernel = attr_ints(attrs, "kernel_shape");
  size_t n = static_cast<size_t>(spatial_rank(ctx));
  if (kernel.size() != n) return;
  std::string auto_pad = has_attr(attrs, "auto_pad") ? attr_string(attrs, "auto_pad") : "NOTSET";
  if (auto_pad != "NOTSET") attrs.erase("pads");
  if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
    Ints strides = has_attr(attrs, "strides") ? attr_ints(attrs, "strides") : Ints(n, 1);
    Ints dilations = has_attr(attrs, "dilations") ? attr_ints(attrs, "dilations") : Ints(n, 1);
    if (strides.size() == n && dilations.size() == n) {
      for (size_t i = 0; i < n; ++i) {
        int64_t in = shape0(ctx)[i + 2], s = strides[i];
        int64_t span = (kernel[i] - 1) * dilations[i] + 1;
        if (((in + s - 1) / s - 1) * s + span < in) strides[i] = 1;
      }
      if (has_attr(attrs, "strides")) attrs["strides"] = strides;
    }
  }
  bool pool = ctx.op.input_names.size() < 2 || ctx.op.input_names[1] != "w";
  bool padded = false;
  if (has_attr(attrs, "pads")) {
    Ints pads = attr_ints(attrs, "pads");
    if (pads.size() != 2 * n) return;
    for (size_t i = 0; i < pads.size(); ++i) {
      if (pool) pads[i] = std::min(pads[i], kernel[i % n] - 1);
      padded |= pads[i] != 0;
    }
    attrs["pads"] = pads;
  }
  if ((padded || auto_pad != "NOTSET") && has_attr(attrs, "ceil_mode"))
    attrs["ceil_mode"] = int64_t{0};
}

// Reflect padding mirrors the axis once: pads wider than the axis (numpy repeats the mirror,
// ONNX Runtime refuses) are left out, and so are crops beside reflect or edge padding, since
// ONNX does not say whether the cropped or the whole axis is mirrored or copied.
void keep_pad_defined(const NodeContext& ctx, Attrs& attrs) {
  if (!has_attr(attrs, "mode") || !has_attr(attrs, "pads") || ctx.op.find_attr("kernel_shape"))
    return;
  const std::string& mode = attr_string(attrs, "mode");
  if (mode != "reflect" && mode != "edge") return;
  Ints pads = attr_ints(attrs, "pads");
  int64_t r = rank0(ctx);
  if (static_cast<int64_t>(pads.size()) != 2 * r) return;
  for (int64_t i = 0; i < 2 * r; ++i) {
    int64_t hi = mode == "reflect" ? std::max<int64_t>(shape0(ctx)[i % r] - 1, 0) : pads[i];
    pads[i] = std::clamp<int64_t>(pads[i], 0, std::max<int64_t>(hi, 0));
  }
  attrs["pads"] = pads;
}

// A normalisation with parameters of the normalized shape (layer_norm's scale is x's shape from
// `axis` on): the axis is the one the parameter operand, drawn first, implies.
bool normalized_shape_params(const OpDef& op) {
  return op.input_names.size() == 3 && op.input_names[1] == "scale" && op.find_attr("axis");
}

void keep_norm_axis(const NodeContext& ctx, Attrs& attrs, Rng& rng) {
  if (!normalized_shape_params(ctx.op) || ctx.inputs.size() < 2) return;
  int64_t r = rank0(ctx), p = static_cast<int64_t>(ctx.inputs[1].shape.size());
  if (p < 1 || p > r) return;
  attrs["axis"] = maybe_negative(r - p, r, rng);
}

// quantize_linear and dequantize_linear: a scale (input 1) of 0-D or of one axis's extent.
bool quantizes(const OpDef& op) {
  return op.input_names.size() == 3 &&
         (op.input_names[1] == "y_scale" || op.input_names[1] == "x_scale");
}

// A 1-D scale runs along an axis of its extent, which the axis attribute then names.
void keep_quant_axis(const NodeContext& ctx, Attrs& attrs, Rng& rng) {
  if (!quantizes(ctx.op) || ctx.inputs.size() < 2 || ctx.inputs[1].shape.size() != 1) return;
  Ints fits;
  for (int64_t a = 0; a < rank0(ctx); ++a)
    if (shape0(ctx)[a] == ctx.inputs[1].shape[0]) fits.push_back(a);
  if (!fits.empty()) attrs["axis"] = maybe_negative(pick_from(rng, fits), rank0(ctx), rng);
}

// resize's target: x's batch and channels, each spatial extent kept, multiplied or divided by 2
// or 3. Whole factors keep every framework's float scale exact enough that nearest picks the
// same element (docs/ops/nn.md, resize).
AttrValue choose_sizes(const NodeContext& ctx, Rng& rng) {
  Ints sizes = shape0(ctx);
  for (int64_t a = 2; a < rank0(ctx); ++a) {
    int64_t f = pick(rng, 1, 3);
    sizes[a] = rng.coin(0.5) && sizes[a] % f == 0 ? sizes[a] / f : sizes[a] * f;
  }
  return sizes;
}

using Chooser = std::function<AttrValue(const NodeContext&, Rng&)>;

const std::map<std::string, Chooser>& named_choosers() {
  static const std::map<std::string, Chooser> choosers = {
      {"axis", choose_axis},
      {"axes", choose_axes},
      {"perm", choose_perm},
      {"shape", choose_target_shape},
      {"repeats", choose_repeats},
      {"pads", choose_pads},
      {"kernel_shape", choose_kernel},
      {"strides", choose_per_spatial},
      {"dilations", choose_per_spatial},
      {"group", choose_group},
      // group_norm's groups: a divisor of x's channels.
      {"num_groups",
       [](const NodeContext& c, Rng& rng) {
         return AttrValue{rank0(c) >= 2 && shape0(c)[1] > 0 ? pick_divisor(shape0(c)[1], rng)
                                                            : int64_t{1}};
       }},
      {"output_padding", choose_output_padding},
      {"sizes", choose_sizes},
      {"equation", choose_equation},
      // topk's k: at most the shortest axis, so whatever axis is chosen.
      {"k",
       [](const NodeContext& c, Rng& rng) {
         const Shape& s = shape0(c);
         return AttrValue{s.empty() ? int64_t{1}
                                    : pick(rng, 1, *std::min_element(s.begin(), s.end()))};
       }},
      {"parts",
       [](const NodeContext& c, Rng&) { return AttrValue{static_cast<int64_t>(c.num_outputs)}; }},
      {"auto_pad",
       [](const NodeContext&, Rng& rng) {
         return AttrValue{pick_from(
             rng, std::vector<std::string>{"NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER"})};
       }},
      {"start",
       [](const NodeContext& c, Rng& rng) { return AttrValue{pick(rng, -rank0(c), rank0(c))}; }},
      {"end",
       [](const NodeContext& c, Rng& rng) { return AttrValue{pick(rng, -rank0(c), rank0(c))}; }},
  };
  return choosers;
}

// Indices of data's rank for gather_elements and scatter_elements, valid whatever axis is chosen
// afterwards: no longer than data on any axis (a gather's mostly as long, as onnx.reference asks:
// docs/conformance.md), in [-m, m-1] for m the shortest axis of data. A
// scatter's are at most m long on every axis and distinct along every line of every axis (a
// permutation of (c + the sum of the coordinates) mod m), so that no two updates meet in one
// element: ONNX leaves repeated indices undefined with reduction "none". They are negative only
// where every axis of data is m long, so that a negative index never names a positive one's
// element.
Tensor element_indices(const Shape& data, int64_t m, DType dtype, bool scatter, Rng& rng) {
  Shape shape;
  for (int64_t d : data)
    shape.push_back(scatter ? pick(rng, 1, m) : rng.coin(0.7) ? d : pick(rng, 1, d));
  Tensor t(TensorType{dtype, shape});
  if (!scatter)
    return random_tensor_in(t.type(), rng, static_cast<double>(-m), static_cast<double>(m - 1));
  Ints perm(m);
  std::iota(perm.begin(), perm.end(), 0);
  shuffle(rng, perm);
  int64_t c = pick(rng, 0, m - 1);
  bool negatives = std::all_of(data.begin(), data.end(), [m](int64_t d) { return d == m; });
  std::vector<int64_t> at;
  for (int64_t k = 0; k < t.numel(); ++k) {
    unravel(k, shape, at);
    int64_t v = perm[(c + std::accumulate(at.begin(), at.end(), int64_t{0})) % m];
    t.set_int(k, negatives && rng.coin(0.3) ? v - m : v);
  }
  return t;
}

}  // namespace

Attrs choose_attrs(const NodeContext& ctx, Rng& rng) {
  Attrs attrs;
  bool has_slice_bounds = ctx.op.find_attr("starts") && ctx.op.find_attr("ends");
  if (has_slice_bounds) choose_slice(ctx, attrs, rng);
  for (const AttrSpec& spec : ctx.op.attrs) {
    if (attrs.count(spec.name)) continue;
    // The kernel extents a conv weight implies are always stated (pools require them anyway).
    bool wanted = spec.required || spec.name == "kernel_shape" || rng.coin(0.5);
    if (!wanted) continue;
    if (spec.name == "split") {
      choose_split(ctx, attrs, rng);
      continue;
    }
    auto named = named_choosers().find(spec.name);
    std::optional<AttrValue> v = named != named_choosers().end()
                                     ? std::optional<AttrValue>(named->second(ctx, rng))
                                     : choose_by_kind(spec, ctx, rng);
    if (v) attrs[spec.name] = std::move(*v);
  }
  keep_window_defined(ctx, attrs);
  keep_pad_defined(ctx, attrs);
  keep_norm_axis(ctx, attrs, rng);
  keep_quant_axis(ctx, attrs, rng);
  return attrs;
}

std::optional<TensorType> structured_operand_type(const NodeContext& ctx, size_t slot, Rng& rng) {
  const auto& names = ctx.op.input_names;
  // scatter_elements' updates: one per index, of data's dtype.
  if (slot < names.size() && names[slot] == "updates" && ctx.inputs.size() >= 2)
    return TensorType{ctx.inputs[0].dtype, ctx.inputs[1].shape};
  // Normalisation parameters (x, scale, b): per channel, or layer_norm's of the shape of x from
  // a random axis on (keep_norm_axis then states that axis); b is scale's type.
  if (names.size() == 3 && names[1] == "scale" && slot >= 1 && !ctx.inputs.empty()) {
    const TensorType& x = ctx.inputs[0];
    if (slot == 2 && ctx.inputs.size() > 1) return TensorType{x.dtype, ctx.inputs[1].shape};
    if (normalized_shape_params(ctx.op) && !x.shape.empty()) {
      int64_t from = pick(rng, 0, static_cast<int64_t>(x.shape.size()) - 1);
      return TensorType{x.dtype, Shape(x.shape.begin() + from, x.shape.end())};
    }
    if (x.shape.size() >= 2) return TensorType{x.dtype, {x.shape[1]}};
    return std::nullopt;
  }
  // A QDQ scale: f32, per tensor or along a random axis; its zero point of the scale's shape, of
  // x's dtype when dequantizing, else u8 or i8 (of those the options allow).
  if (quantizes(ctx.op) && slot >= 1 && !ctx.inputs.empty()) {
    const TensorType& x = ctx.inputs[0];
    if (slot == 1) {
      if (x.shape.empty() || rng.coin(0.5)) return TensorType{DType::f32, {}};
      return TensorType{DType::f32,
                        {x.shape[pick(rng, 0, static_cast<int64_t>(x.shape.size()) - 1)]}};
    }
    if (ctx.inputs.size() < 2) return std::nullopt;
    if (names[1] == "x_scale") return TensorType{x.dtype, ctx.inputs[1].shape};
    std::vector<DType> quantized;
    for (DType t : {DType::u8, DType::i8})
      if (std::find(ctx.options.dtypes.begin(), ctx.options.dtypes.end(), t) !=
          ctx.options.dtypes.end())
        quantized.push_back(t);
    if (quantized.empty()) return std::nullopt;
    return TensorType{pick_from(rng, quantized), ctx.inputs[1].shape};
  }
  bool conv = names.size() > 1 && names[1] == "w";
  // conv_transpose: w [C, M/group, k...] and b [M] for a group dividing C (choose_group reads it
  // back from b).
  if (conv && transposed_conv(ctx.op) && slot > 0 && !ctx.inputs.empty() &&
      ctx.inputs[0].shape.size() >= 3) {
    const TensorType& x = ctx.inputs[0];
    if (slot == 1) {
      Shape w{x.shape[1], pick(rng, 1, 2)};
      for (size_t d = 2; d < x.shape.size(); ++d) w.push_back(pick(rng, 1, 3));
      return TensorType{x.dtype, w};
    }
    if (ctx.inputs.size() > 1 && ctx.inputs[1].shape.size() >= 2 && x.shape[1] > 0)
      return TensorType{x.dtype, {ctx.inputs[1].shape[1] * pick_divisor(x.shape[1], rng)}};
    return std::nullopt;
  }
  if (!conv || slot == 0 || ctx.inputs.empty()) return std::nullopt;
  const TensorType& x = ctx.inputs[0];
  if (x.shape.size() < 3 || x.shape[1] < 1) return std::nullopt;  // no channels to group
  if (slot == 1) {
    // Weight [M, C/group, k...]: a random group dividing C, M a multiple of it.
    int64_t c = x.shape[1];
    int64_t g = pick_divisor(c, rng);
    Shape w{g * pick(rng, 1, 2), c / g};
    for (size_t d = 2; d < x.shape.size(); ++d)
      w.push_back(pick(rng, 1, std::min<int64_t>(3, x.shape[d])));
    return TensorType{x.dtype, w};
  }
  if (slot == 2 && ctx.inputs.size() > 1 && !ctx.inputs[1].shape.empty())
    return TensorType{x.dtype, {ctx.inputs[1].shape[0]}};
  return std::nullopt;
}

std::optional<Tensor> structured_operand_value(const NodeContext& ctx, size_t slot, Rng& rng) {
  if (slot >= ctx.op.input_names.size() || ctx.op.input_names[slot] != "indices" ||
      ctx.inputs.empty())
    return std::nullopt;
  const Shape& data = shape0(ctx);
  if (data.empty()) return std::nullopt;
  // In range for every axis of data, so the axis can be chosen afterwards.
  int64_t m = *std::min_element(data.begin(), data.end());
  std::vector<DType> index_types;
  for (DType t : {DType::i64, DType::i32})
    if (std::find(ctx.options.dtypes.begin(), ctx.options.dtypes.end(), t) !=
        ctx.options.dtypes.end())
      index_types.push_back(t);
  if (index_types.empty() || m < 1) return std::nullopt;
  if (ctx.op.has_tag("element-indices"))
    return element_indices(data, m, pick_from(rng, index_types), ctx.op.input_names.size() > 2,
                           rng);
  Shape shape;
  for (int64_t d = pick(rng, 0, 2); d > 0; --d) shape.push_back(pick(rng, 1, 3));
  return random_tensor_in({pick_from(rng, index_types), shape}, rng, static_cast<double>(-m),
                          static_cast<double>(m - 1));
}

}  // namespace retort
