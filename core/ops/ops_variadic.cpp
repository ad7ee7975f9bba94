// Variadic elementwise ops (max, min, sum, mean) and the other elementwise ops that fit neither
// the unary nor the binary mould: where, clip, cast. Rules in docs/ops/elementwise.md.
#include <cmath>
#include <cstring>
#include <limits>

#include "core/base/error.h"
#include "core/ops/elementwise.h"
#include "core/ops/index_space.h"
#include "core/ops/registry.h"
#include "core/ops/scalar_math.h"

namespace retort {

namespace {

VariadicSpec spec(std::string name, std::string onnx, DTypeSet dtypes, std::string doc) {
  VariadicSpec s;
  s.name = std::move(name);
  s.onnx_type = std::move(onnx);
  s.dtypes = dtypes;
  s.doc = std::move(doc);
  return s;
}

void add_folds(OpRegistry& r) {
  VariadicSpec max = spec("max", "Max", DTypeSet::Numeric,
                          "Elementwise maximum of one or more broadcast inputs; NaN wins.");
  max.f = nan_max;
  max.fi = [](int64_t a, int64_t b) { return a < b ? b : a; };
  max.domain = ValueDomain::NotNaN;  // ONNX does not say whether NaN wins (docs/ops)
  r.add(make_variadic(std::move(max)));

  VariadicSpec min = spec("min", "Min", DTypeSet::Numeric,
                          "Elementwise minimum of one or more broadcast inputs; NaN wins.");
  min.f = nan_min;
  min.fi = [](int64_t a, int64_t b) { return b < a ? b : a; };
  min.domain = ValueDomain::NotNaN;
  r.add(make_variadic(std::move(min)));

  VariadicSpec sum = spec("sum", "Sum", DTypeSet::Float,
                          "Elementwise sum of one or more broadcast inputs, rounded once.");
  sum.f = [](double a, double b) { return a + b; };
  sum.tags = {"accumulates"};  // an overflow of the sum is undefined (core/compare/undefined_check)
  r.add(make_variadic(std::move(sum)));

  VariadicSpec mean = spec("mean", "Mean", DTypeSet::Float,
                           "Elementwise mean of one or more broadcast inputs, rounded once.");
  mean.f = [](double a, double b) { return a + b; };
  mean.finish = [](double total, size_t n) { return total / static_cast<double>(n); };
  mean.tags = {"averages"};
  r.add(make_variadic(std::move(mean)));
}

void add_where(OpRegistry& r) {
  OpDef op;
  op.name = "where";
  op.doc = "cond ? x : y elementwise, with all three broadcast together.";
  op.input_names = {"cond", "x", "y"};
  op.min_inputs = op.max_inputs = 3;
  op.onnx = {"Where", 13, {}};
  op.tags = {"elementwise"};
  op.infer = [](const std::vector<TensorType>& in, const Attrs&, size_t) {
    if (in[0].dtype != DType::boolean)
      fail("input 'cond' of op 'where' must be bool, got {}", dtype_name(in[0].dtype));
    if (in[1].dtype != in[2].dtype)
      fail("inputs 'x' and 'y' of op 'where' must share one dtype, got {} and {}",
           dtype_name(in[1].dtype), dtype_name(in[2].dtype));
    Shape s = broadcast_shapes(broadcast_shapes(in[0].shape, in[1].shape), in[2].shape);
    return std::vector<TensorType>{{in[1].dtype, s}};
  };
  op.kernel = [](const std::vector<const Tensor*>& in, const Attrs&,
                 const std::vector<TensorType>& out_types) {
    const Tensor& cond = *in[0];
    Tensor out(out_types[0]);
    size_t width = dtype_size(out.dtype());
    // x and y share the output dtype, so copying the element's bytes is exact.
    for_each_broadcast(out.shape(), {&cond.shape(), &in[1]->shape(), &in[2]->shape()},
                       [&](int64_t i, const int64_t* off) {
                         const Tensor& src = cond.get_int(off[0]) ? *in[1] : *in[2];
                         int64_t j = cond.get_int(off[0]) ? off[1] : off[2];
                         std::memcpy(out.bytes() + i * width, src.bytes() + j * width, width);
                       });
    return std::vector<Tensor>{std::move(out)};
  };
  r.add(std::move(op));
}

constexpr double kInf = std::numeric_limits<double>::infinity();

// An absent bound reads as the widest value, so that clip without it leaves that side alone.
double bound(const Attrs& a, const char* name, double absent) {
  return has_attr(a, name) ? attr_float(a, name) : absent;
}

// An integer clip's bound as ONNX defines it: a tensor of x's dtype, so ceil(min) and floor(max)
// saturated to the dtype's range (a plain conversion would truncate -1.625 to -1 and wrap -1000
// in i8); an absent bound is the dtype's limit. The kernel and the export both use it, so
// clip(u8, min=1.5, max=-1.25) clips at 2 then at 0 and gives 0, as ONNX Runtime, XLA, TVM and
// onnx.reference do.
int64_t integer_clip_bound(const Attrs& a, bool is_min, DType t) {
  double v = bound(a, is_min ? "min" : "max", is_min ? -kInf : kInf);
  v = is_min ? std::ceil(v) : std::floor(v);
  auto [lo, hi] = integer_range(t);
  return v <= static_cast<double>(lo)   ? lo
         : v >= static_cast<double>(hi) ? hi
                                        : static_cast<int64_t>(v);
}

// ONNX's Clip takes its bounds as tensors of x's dtype and reads an absent one as the dtype's
// limit, so +inf would clip to the largest float. The export writes both bounds as the kernel
// uses them: an absent float bound as an infinity, an integer one saturated to the dtype.
std::function<Tensor(const Attrs&, DType)> clip_bound_to_onnx(bool is_min) {
  return [is_min](const Attrs& a, DType t) {
    if (!is_integer(t))
      return Tensor::scalar(t, bound(a, is_min ? "min" : "max", is_min ? -kInf : kInf));
    return Tensor::from_ints(t, {}, {integer_clip_bound(a, is_min, t)});
  };
}

// The other way: an ONNX Clip without a bound clips at the dtype's limit.
std::function<std::optional<AttrValue>(DType)> clip_bound_from_onnx(bool is_min) {
  return [is_min](DType t) -> std::optional<AttrValue> {
    if (!is_float(t)) return std::nullopt;  // an integer never passes its dtype's limits
    return is_min ? -float_max(t) : float_max(t);
  };
}

void add_clip(OpRegistry& r) {
  UnarySpec s;
  s.name = "clip";
  s.onnx_type = "Clip";
  s.doc = "min(max(x, min), max); an absent bound is not applied, and min > max gives max.";
  s.dtypes = DTypeSet::Numeric;
  s.domain = ValueDomain::NotNaN;  // ONNX's min(max(x, min), max) does not say what NaN gives
  s.attrs = {AttrSpec{"min", AttrKind::Float, std::nullopt, false, "lower bound", false},
             AttrSpec{"max", AttrKind::Float, std::nullopt, false, "upper bound", false}};
  s.f_attrs = [](const Attrs& a) {
    double lo = bound(a, "min", -kInf), hi = bound(a, "max", kInf);
    return std::function<double(double)>(
        [lo, hi](double x) { return nan_min(nan_max(x, lo), hi); });
  };
  s.fi_attrs = [](const Attrs& a, DType t) {
    int64_t lo = integer_clip_bound(a, true, t), hi = integer_clip_bound(a, false, t);
    return std::function<int64_t(int64_t)>([lo, hi](int64_t x) {
      int64_t y = x < lo ? lo : x;
      return y > hi ? hi : y;
    });
  };
  OpDef op = make_unary(std::move(s));
  using Form = OnnxAttrInput::Form;
  op.onnx.attr_inputs = {
      {"min", 1, Form::ScalarOfInput0, clip_bound_to_onnx(true), clip_bound_from_onnx(true)},
      {"max", 2, Form::ScalarOfInput0, clip_bound_to_onnx(false), clip_bound_from_onnx(false)}};
  r.add(std::move(op));
}

void add_cast(OpRegistry& r) {
  OpDef op;
  op.name = "cast";
  op.doc =
      "Converts x to dtype `to`: floats to integers truncate toward zero and wrap, "
      "NaN becomes 0, nonzero becomes true. A float outside the integer target's range "
      "(NaN, infinities) is undefined in ONNX, so compare reports it as undefined.";
  op.input_names = {"x"};
  op.attrs = {AttrSpec{"to", AttrKind::DType, std::nullopt, true, "target dtype"}};
  op.onnx = {"Cast", 13, {}};
  op.input_domains = {ValueDomain::IntegerTarget};
  // Into an integer or bool a cast steps; between floats it rounds (core/compare/precision.cpp).
  op.tags = {"elementwise", "unary", "steps"};
  op.infer = [](const std::vector<TensorType>& in, const Attrs& a, size_t) {
    return std::vector<TensorType>{{attr_dtype(a, "to"), in[0].shape}};
  };
  op.kernel = [](const std::vector<const Tensor*>& in, const Attrs& a,
                 const std::vector<TensorType>&) {
    return std::vector<Tensor>{in[0]->cast(attr_dtype(a, "to"))};
  };
  r.add(std::move(op));
}

}  // namespace

void register_variadic_ops(OpRegistry& r) {
  add_folds(r);
  add_where(r);
  add_clip(r);
  add_cast(r);
}

}  // namespace retort
