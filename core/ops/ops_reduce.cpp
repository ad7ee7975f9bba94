// Reductions over a set of axes (reduce_sum, reduce_mean, reduce_max, reduce_min, reduce_prod)
// and index reductions over one axis (argmax, argmin).
#include <algorithm>
#include <cmath>

#include <fmt/ranges.h>

#include "core/base/error.h"
#include "core/ops/element_values.h"
#include "core/ops/index_space.h"
#include "core/ops/infer_rules.h"
#include "core/ops/registry.h"
#include "core/ops/scalar_math.h"

namespace retort {

namespace {

enum class Reduce { Sum, Mean, Max, Min, Prod };

struct ReduceInfo {
  Reduce kind;
  const char* name;
  const char* onnx;
  const char* doc;
  std::vector<DType> dtypes;  // ONNX-13's type constraint, among Retort's dtypes
};

std::vector<ReduceInfo> reductions() {
  return {
      {Reduce::Sum,
       "reduce_sum",
       "ReduceSum",
       "Sum over the given axes (all when axes is absent); integers wrap.",
       {DType::f16, DType::f32, DType::f64, DType::i32, DType::i64}},
      {Reduce::Mean,
       "reduce_mean",
       "ReduceMean",
       "Mean over the given axes (all when axes is absent); integer means truncate toward zero.",
       {DType::f16, DType::f32, DType::f64, DType::i32, DType::i64}},
      {Reduce::Max,
       "reduce_max",
       "ReduceMax",
       "Maximum over the given axes (all when axes is absent); NaN propagates.",
       {DType::f16, DType::f32, DType::f64, DType::i8, DType::u8, DType::i32, DType::i64}},
      {Reduce::Min,
       "reduce_min",
       "ReduceMin",
       "Minimum over the given axes (all when axes is absent); NaN propagates.",
       {DType::f16, DType::f32, DType::f64, DType::i8, DType::u8, DType::i32, DType::i64}},
      {Reduce::Prod,
       "reduce_prod",
       "ReduceProd",
       "Product over the given axes (all when axes is absent); integers wrap.",
       {DType::f16, DType::f32, DType::f64, DType::i32, DType::i64}},
  };
}

// Which axes of x the node reduces. Absent or empty axes mean all of them, except for reduce_sum
// with noop_with_empty_axes=1, where they mean none: ONNX's ReduceSum takes axes as an optional
// input, and an absent input is empty (ONNX Runtime returns x unchanged).
std::vector<bool> reduced_axes(const TensorType& x, const Attrs& attrs, const std::string& op) {
  int64_t rank = static_cast<int64_t>(x.shape.size());
  bool noop = has_attr(attrs, "noop_with_empty_axes") && attr_int(attrs, "noop_with_empty_axes");
  if (!has_attr(attrs, "axes") || attr_ints(attrs, "axes").empty())
    return std::vector<bool>(x.shape.size(), !noop);
  std::vector<bool> mask(x.shape.size(), false);
  for (int64_t a : normalize_axes(attr_ints(attrs, "axes"), rank, op + " attribute 'axes'"))
    mask[a] = true;
  return mask;
}

Shape reduced_shape(const Shape& s, const std::vector<bool>& mask, bool keepdims) {
  Shape out;
  for (size_t d = 0; d < s.size(); ++d) {
    if (!mask[d])
      out.push_back(s[d]);
    else if (keepdims)
      out.push_back(1);
  }
  return out;
}

template <typename T>
T max_step(T a, T b) {
  if constexpr (std::is_same_v<T, double>)
    return nan_max(a, b);
  else
    return std::max(a, b);
}

template <typename T>
T min_step(T a, T b) {
  if constexpr (std::is_same_v<T, double>)
    return nan_min(a, b);
  else
    return std::min(a, b);
}

template <typename T, typename Step>
std::vector<T> fold(const std::vector<T>& x, const AxisSplit& split, T init, Step step) {
  std::vector<T> out(split.kept.size());
  for (size_t o = 0; o < out.size(); ++o) {
    T acc = init;
    for (int64_t r : split.selected) acc = step(acc, x[split.kept[o] + r]);
    out[o] = acc;
  }
  return out;
}

template <typename T>
std::vector<T> reduce_values(Reduce kind, const Tensor& xt, const std::vector<bool>& mask) {
  std::vector<T> x = read_as<T>(xt);
  AxisSplit split = split_axes(xt.shape(), mask);
  auto add = [](T a, T b) { return acc_add(a, b); };
  switch (kind) {
    case Reduce::Sum:
      return fold(x, split, T{0}, add);
    case Reduce::Prod:
      return fold(x, split, T{1}, [](T a, T b) { return acc_mul(a, b); });
    case Reduce::Max:
      return fold(x, split, lowest_of<T>(xt.dtype()), max_step<T>);
    case Reduce::Min:
      return fold(x, split, highest_of<T>(xt.dtype()), min_step<T>);
    case Reduce::Mean: {
      std::vector<T> sums = fold(x, split, T{0}, add);
      auto count = static_cast<int64_t>(split.selected.size());
      for (T& v : sums) {
        if constexpr (std::is_same_v<T, double>)
          v /= static_cast<double>(count);
        else
          v = count == 0 ? 0 : v / count;
      }
      return sums;
    }
  }
  return {};
}

OpDef reduce_op(const ReduceInfo& info) {
  OpDef op;
  op.name = info.name;
  op.doc = info.doc;
  op.input_names = {"x"};
  // ONNX does not say whether a NaN wins a maximum or minimum (ONNX Runtime drops it; numpy and
  // onnx.reference keep it): docs/ops/nn.md.
  if (info.kind == Reduce::Max || info.kind == Reduce::Min)
    op.input_domains = {ValueDomain::NotNaN};
  bool sum = info.kind == Reduce::Sum;
  op.attrs = {
      {"axes", AttrKind::Ints, std::nullopt, false,
       "axes to reduce (negative counts from the end); absent: all", !sum},
      {"keepdims", AttrKind::Int, AttrValue{int64_t{1}}, false, "1: keep reduced axes as extent 1"},
  };
  if (sum)
    op.attrs.push_back({"noop_with_empty_axes", AttrKind::Int, AttrValue{int64_t{0}}, false,
                        "1: an empty axes list reduces nothing"});
  std::vector<DType> dtypes = info.dtypes;
  std::string name = info.name;
  Reduce kind = info.kind;
  auto resolve = [dtypes, name](const TensorType& x, const Attrs& attrs) {
    bool ok = false;
    for (DType d : dtypes) ok = ok || d == x.dtype;
    if (!ok) {
      std::vector<std::string_view> names;
      for (DType d : dtypes) names.push_back(dtype_name(d));
      fail("{} input 'x' must be one of {}, got {}", name, fmt::join(names, ", "),
           dtype_name(x.dtype));
    }
    return reduced_axes(x, attrs, name);
  };
  op.infer = [resolve](const std::vector<TensorType>& in, const Attrs& attrs, size_t) {
    std::vector<bool> mask = resolve(in[0], attrs);
    return std::vector<TensorType>{
        {in[0].dtype, reduced_shape(in[0].shape, mask, attr_int(attrs, "keepdims") != 0)}};
  };
  op.kernel = [resolve, kind](const std::vector<const Tensor*>& in, const Attrs& attrs,
                              const std::vector<TensorType>& out) {
    std::vector<bool> mask = resolve(in[0]->type(), attrs);
    if (is_float(in[0]->dtype()))
      return std::vector<Tensor>{tensor_from(out[0], reduce_values<double>(kind, *in[0], mask))};
    return std::vector<Tensor>{tensor_from(out[0], reduce_values<int64_t>(kind, *in[0], mask))};
  };
  op.onnx = {info.onnx, 13, {}};
  if (sum) op.onnx.attr_inputs = {{.attr = "axes", .index = 1}};
  op.tags = {"reduce"};
  // An integer sum or product that leaves its dtype is undefined, and so is a float sum whose
  // magnitudes pass the dtype's range, or a float product whose factors above 1 do
  // (core/compare/undefined_check).
  if (sum || kind == Reduce::Prod) op.tags.push_back("overflow-undefined");
  if (sum) op.tags.push_back("accumulates");
  if (kind == Reduce::Prod) op.tags.push_back("multiplies");
  if (kind == Reduce::Mean) op.tags.push_back("averages");
  return op;
}

// --- argmax / argmin ---------------------------------------------------------------------------

int64_t arg_axis(const TensorType& x, const Attrs& attrs, const std::string& op) {
  require_dtype(x,
                {DType::f16, DType::f32, DType::f64, DType::i8, DType::u8, DType::i16, DType::i32,
                 DType::i64},
                fmt::format("{} input 'x'", op));
  require_rank(x, 1, static_cast<int64_t>(kMaxRank), fmt::format("{} input 'x'", op));
  int64_t axis = normalize_axis(attr_int(attrs, "axis"), static_cast<int64_t>(x.shape.size()));
  if (x.shape[axis] == 0) fail("{} over axis {} of x {}, which is empty", op, axis, x.str());
  return axis;
}

// The position of the largest (max) or smallest value along the selected axis; a NaN beats every
// number, ties go to the first position (the last with select_last_index).
template <typename T>
std::vector<int64_t> arg_values(const Tensor& xt, int64_t axis, bool max, bool last) {
  std::vector<T> x = read_as<T>(xt);
  std::vector<bool> sel(xt.shape().size(), false);
  sel[axis] = true;
  AxisSplit split = split_axes(xt.shape(), sel);
  std::vector<int64_t> out(split.kept.size());
  for (size_t o = 0; o < out.size(); ++o) {
    const T* row = x.data() + split.kept[o];
    int64_t best = 0;
    for (size_t j = 1; j < split.selected.size(); ++j) {
      T b = row[split.selected[best]], v = row[split.selected[j]];
      bool take = max ? (v > b || (last && v == b)) : (v < b || (last && v == b));
      if constexpr (std::is_same_v<T, double>)
        if (std::isnan(b) || std::isnan(v)) take = std::isnan(v) && (last || !std::isnan(b));
      if (take) best = static_cast<int64_t>(j);
    }
    out[o] = best;
  }
  return out;
}

OpDef arg_op(bool max) {
  OpDef op;
  op.name = max ? "argmax" : "argmin";
  op.doc = max ? "Index (i64) of the largest element along an axis; NaN counts as largest "
                 "(ONNX does not say, so compare reports a NaN input as undefined)."
               : "Index (i64) of the smallest element along an axis; NaN counts as smallest "
                 "(ONNX does not say, so compare reports a NaN input as undefined).";
  op.input_names = {"x"};
  op.input_domains = {ValueDomain::NotNaN};
  op.attrs = {
      {"axis", AttrKind::Int, AttrValue{int64_t{0}}, false, "the axis to search"},
      {"keepdims", AttrKind::Int, AttrValue{int64_t{1}}, false, "1: keep the axis as extent 1"},
      {"select_last_index", AttrKind::Int, AttrValue{int64_t{0}}, false,
       "1: ties go to the last position instead of the first"},
  };
  std::string name = op.name;
  op.infer = [name](const std::vector<TensorType>& in, const Attrs& attrs, size_t) {
    int64_t axis = arg_axis(in[0], attrs, name);
    std::vector<bool> mask(in[0].shape.size(), false);
    mask[axis] = true;
    return std::vector<TensorType>{
        {DType::i64, reduced_shape(in[0].shape, mask, attr_int(attrs, "keepdims") != 0)}};
  };
  op.kernel = [name, max](const std::vector<const Tensor*>& in, const Attrs& attrs,
                          const std::vector<TensorType>& out) {
    int64_t axis = arg_axis(in[0]->type(), attrs, name);
    bool last = attr_int(attrs, "select_last_index") != 0;
    std::vector<int64_t> idx = is_float(in[0]->dtype())
                                   ? arg_values<double>(*in[0], axis, max, last)
                                   : arg_values<int64_t>(*in[0], axis, max, last);
    return std::vector<Tensor>{tensor_from(out[0], idx)};
  };
  op.onnx = {max ? "ArgMax" : "ArgMin", 13, {}};
  op.tags = {"reduce"};
  return op;
}

}  // namespace

void register_reduce_ops(OpRegistry& r) {
  for (const auto& info : reductions()) r.add(reduce_op(info));
  r.add(arg_op(true));
  r.add(arg_op(false));
}

}  // namespace retort
