#include "core/ops/kernel_util.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace retort {

void unravel(int64_t flat, const Shape& s, std::vector<int64_t>& index) {
  index.resize(s.size());
  for (size_t i = s.size(); i-- > 0;) {
    index[i] = s[i] == 0 ? 0 : flat % s[i];
    flat = s[i] == 0 ? 0 : flat / s[i];
  }
}

int64_t ravel(const std::vector<int64_t>& index, const std::vector<int64_t>& strides) {
  int64_t off = 0;
  for (size_t i = 0; i < index.size(); ++i) off += index[i] * strides[i];
  return off;
}

std::vector<int64_t> offsets_over(const Shape& shape, const std::vector<int64_t>& strides) {
  std::vector<int64_t> out{0};
  // Built from the outermost axis in: each axis multiplies the list by its extent.
  for (size_t d = 0; d < shape.size(); ++d) {
    std::vector<int64_t> next;
    next.reserve(out.size() * static_cast<size_t>(shape[d]));
    for (int64_t base : out)
      for (int64_t i = 0; i < shape[d]; ++i) next.push_back(base + i * strides[d]);
    out = std::move(next);
  }
  return out;
}

AxisSplit split_axes(const Shape& shape, const std::vector<bool>& selected) {
  std::vector<int64_t> strides = strides_of(shape);
  Shape kept_shape, sel_shape;
  std::vector<int64_t> kept_strides, sel_strides;
  for (size_t d = 0; d < shape.size(); ++d) {
    bool sel = d < selected.size() && selected[d];
    (sel ? sel_shape : kept_shape).push_back(shape[d]);
    (sel ? sel_strides : kept_strides).push_back(strides[d]);
  }
  // With an empty side there is nothing to walk; the other side's list is not built either, as
  // its extent can be huge next to a zero extent.
  auto empty = [](const Shape& s) { return std::find(s.begin(), s.end(), 0) != s.end(); };
  if (empty(kept_shape)) return {};
  if (empty(sel_shape)) return {offsets_over(kept_shape, kept_strides), {}};
  return {offsets_over(kept_shape, kept_strides), offsets_over(sel_shape, sel_strides)};
}

int64_t int_lowest(DType t) {
  if (!is_signed(t) || is_float(t)) return 0;
  return integer_bits(t) == 64 ? std::numeric_limits<int64_t>::min()
                               : -(int64_t{1} << (integer_bits(t) - 1));
}

int64_t int_highest(DType t) {
  if (t == DType::boolean) return 1;
  if (is_float(t)) return 0;
  int bits = integer_bits(t) - (is_signed(t) ? 1 : 0);
  return bits == 63 ? std::numeric_limits<int64_t>::max() : (int64_t{1} << bits) - 1;
}

std::vector<double> read_doubles(const Tensor& t) {
  std::vector<double> v(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) v[i] = t.get(i);
  return v;
}

std::vector<int64_t> read_ints(const Tensor& t) {
  std::vector<int64_t> v(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) v[i] = t.get_int(i);
  return v;
}

Tensor tensor_from(const TensorType& type, const std::vector<double>& values) {
  return Tensor::from_doubles(type.dtype, type.shape, values);
}

Tensor tensor_from(const TensorType& type, const std::vector<int64_t>& values) {
  return Tensor::from_ints(type.dtype, type.shape, values);
}

void for_each_broadcast(const Shape& out, const std::vector<const Shape*>& in_shapes,
                        const std::function<void(int64_t, const int64_t*)>& f) {
  size_t k = in_shapes.size();
  std::vector<std::vector<int64_t>> strides;
  for (const Shape* s : in_shapes) strides.push_back(broadcast_strides(*s, out));
  std::vector<int64_t> index(out.size(), 0);
  std::vector<int64_t> offsets(k, 0);
  int64_t total = numel(out);
  // An odometer over the output index keeps each input offset up to date incrementally.
  for (int64_t flat = 0; flat < total; ++flat) {
    f(flat, offsets.data());
    for (size_t d = out.size(); d-- > 0;) {
      if (++index[d] < out[d]) {
        for (size_t j = 0; j < k; ++j) offsets[j] += strides[j][d];
        break;
      }
      for (size_t j = 0; j < k; ++j) offsets[j] -= strides[j][d] * (out[d] - 1);
      index[d] = 0;
    }
  }
}

void require_dtype(const TensorType& t, std::initializer_list<DType> allowed,
                   const std::string& what) {
  for (DType d : allowed)
    if (t.dtype == d) return;
  std::vector<std::string_view> names;
  for (DType d : allowed) names.push_back(dtype_name(d));
  fail("{} must be one of {}, got {}", what, fmt::join(names, ", "), dtype_name(t.dtype));
}

void require_float(const TensorType& t, const std::string& what) {
  if (!is_float(t.dtype)) fail("{} must be a float tensor, got {}", what, dtype_name(t.dtype));
}

void require_numeric(const TensorType& t, const std::string& what) {
  if (t.dtype == DType::boolean) fail("{} must be numeric, got bool", what);
}

void require_same_dtype(const std::vector<TensorType>& ts) {
  for (size_t i = 1; i < ts.size(); ++i)
    if (ts[i].dtype != ts[0].dtype)
      fail("inputs must share one dtype, got {} and {}", dtype_name(ts[0].dtype),
           dtype_name(ts[i].dtype));
}

void require_rank(const TensorType& t, int64_t lo, int64_t hi, const std::string& what) {
  int64_t r = static_cast<int64_t>(t.shape.size());
  if (r < lo || r > hi) {
    if (lo == hi) fail("{} must have rank {}, got {}", what, lo, r);
    fail("{} must have rank {} to {}, got {}", what, lo, hi, r);
  }
}

int64_t attr_axis(const Attrs& a, const Shape& s, std::string_view what) {
  int64_t rank = static_cast<int64_t>(s.size());
  if (rank == 0) fail("attribute 'axis' needs {} of rank >= 1, got a scalar", what);
  int64_t axis = attr_int(a, "axis");
  if (axis < -rank || axis >= rank)
    fail("attribute 'axis' {} is out of range [{}, {}] for {} {}", axis, -rank, rank - 1, what,
         shape_str(s));
  return axis < 0 ? axis + rank : axis;
}

AttrSpec axis_attr(std::optional<int64_t> default_axis, const std::string& doc) {
  std::optional<AttrValue> def;
  if (default_axis) def = *default_axis;
  return {"axis", AttrKind::Int, def, !default_axis, doc + ", in [-rank, rank-1]"};
}

InferFn infer_same_dtype(ShapeFn shape_of) {
  return
      [shape_of = std::move(shape_of)](const std::vector<TensorType>& in, const Attrs& a, size_t) {
        return std::vector<TensorType>{{in[0].dtype, shape_of(in[0].shape, a)}};
      };
}

std::vector<TensorType> infer_same_as_first(const std::vector<TensorType>& in, const Attrs&, size_t) {
  return {in.at(0)};
}

std::vector<TensorType> infer_broadcast(const std::vector<TensorType>& in, const Attrs&, size_t) {
  require_same_dtype(in);
  Shape s = in.at(0).shape;
  for (size_t i = 1; i < in.size(); ++i) s = broadcast_shapes(s, in[i].shape);
  return {{in[0].dtype, s}};
}

bool dtype_in_set(DType t, DTypeSet set) {
  switch (set) {
    case DTypeSet::Float: return is_float(t);
    case DTypeSet::Numeric: return t != DType::boolean;
    case DTypeSet::SignedNumeric: return t != DType::boolean && is_signed(t);
    case DTypeSet::Integer: return is_integer(t);
    case DTypeSet::Bool: return t == DType::boolean;
    case DTypeSet::Any: return true;
  }
  return false;
}

std::string_view dtype_set_name(DTypeSet set) {
  switch (set) {
    case DTypeSet::Float: return "a float dtype";
    case DTypeSet::Numeric: return "a numeric dtype";
    case DTypeSet::SignedNumeric: return "a signed numeric dtype";
    case DTypeSet::Integer: return "an integer dtype";
    case DTypeSet::Bool: return "bool";
    case DTypeSet::Any: return "any dtype";
  }
  return "?";
}

namespace {
void check_set(const TensorType& t, DTypeSet set, const std::string& op, const char* input) {
  if (!dtype_in_set(t.dtype, set))
    fail("op '{}' needs {} for input '{}', got {}", op, dtype_set_name(set), input,
         dtype_name(t.dtype));
}

// Runs f(out_index, offset_a, offset_b) over a broadcast pair; equal shapes skip the odometer.
template <typename F>
void for_each_pair(const Shape& out, const Shape& a, const Shape& b, F&& f) {
  if (a == out && b == out) {
    int64_t n = numel(out);
    for (int64_t i = 0; i < n; ++i) f(i, i, i);
    return;
  }
  for_each_broadcast(out, {&a, &b}, [&](int64_t i, const int64_t* off) { f(i, off[0], off[1]); });
}
}  // namespace

OpDef make_unary(UnarySpec spec) {
  OpDef op;
  op.name = spec.name;
  op.doc = spec.doc;
  op.input_names = {"x"};
  op.attrs = spec.attrs;
  op.onnx = {spec.onnx_type, spec.since_opset, {}};
  op.input_domains = {spec.domain};
  op.tags = {"elementwise", "unary"};
  DTypeSet set = spec.dtypes;
  std::string name = spec.name;
  op.infer = [set, name](const std::vector<TensorType>& in, const Attrs&, size_t) {
    check_set(in[0], set, name, "x");
    return std::vector<TensorType>{in[0]};
  };
  if (spec.kernel) {
    op.kernel = std::move(spec.kernel);
    return op;
  }
  op.kernel = [f = spec.f, fi = spec.fi, f_attrs = spec.f_attrs, fi_attrs = spec.fi_attrs](
                  const std::vector<const Tensor*>& in, const Attrs& attrs,
                  const std::vector<TensorType>& out_types) {
    const Tensor& x = *in[0];
    Tensor out(out_types[0]);
    auto fn = f_attrs ? f_attrs(attrs) : f;
    auto fin = fi_attrs ? fi_attrs(attrs) : fi;
    if (fin && !is_float(x.dtype())) {
      for (int64_t i = 0; i < x.numel(); ++i) out.set_int(i, fin(x.get_int(i)));
    } else {
      for (int64_t i = 0; i < x.numel(); ++i) out.set(i, fn(x.get(i)));
    }
    return std::vector<Tensor>{std::move(out)};
  };
  return op;
}

OpDef make_binary(BinarySpec spec) {
  OpDef op;
  op.name = spec.name;
  op.doc = spec.doc;
  op.input_names = {"a", "b"};
  op.min_inputs = op.max_inputs = 2;
  op.attrs = spec.attrs;
  op.onnx = {spec.onnx_type, spec.since_opset, {}};
  op.input_domains = {spec.domain_a, spec.domain_b};
  op.tags = {"elementwise", "binary"};
  op.tags.insert(op.tags.end(), spec.tags.begin(), spec.tags.end());
  DTypeSet set = spec.dtypes;
  std::optional<DTypeSet> set_b = spec.dtypes_b;
  std::string name = spec.name;
  bool bool_result = spec.bool_result;
  op.infer = [set, set_b, name, bool_result](const std::vector<TensorType>& in, const Attrs& a,
                                             size_t n) {
    check_set(in[0], set, name, "a");
    std::vector<TensorType> out;
    if (set_b) {
      check_set(in[1], *set_b, name, "b");
      out = {{in[0].dtype, broadcast_shapes(in[0].shape, in[1].shape)}};
    } else {
      out = infer_broadcast(in, a, n);
    }
    if (bool_result) out[0].dtype = DType::boolean;
    return out;
  };
  op.kernel = [f = spec.f, fi = spec.fi, f_attrs = spec.f_attrs, fi_attrs = spec.fi_attrs](
                  const std::vector<const Tensor*>& in, const Attrs& attrs,
                  const std::vector<TensorType>& out_types) {
    const Tensor& a = *in[0];
    const Tensor& b = *in[1];
    Tensor out(out_types[0]);
    auto fn = f_attrs ? f_attrs(attrs) : f;
    auto fin = fi_attrs ? fi_attrs(attrs) : fi;
    DType dt = a.dtype();
    if (fin && !is_float(dt) && !is_float(b.dtype())) {
      for_each_pair(out.shape(), a.shape(), b.shape(), [&](int64_t i, int64_t ia, int64_t ib) {
        out.set_int(i, wrap_int(fin(a.get_int(ia), b.get_int(ib)), dt));
      });
    } else {
      for_each_pair(out.shape(), a.shape(), b.shape(), [&](int64_t i, int64_t ia, int64_t ib) {
        out.set(i, fn(a.get(ia), b.get(ib)));
      });
    }
    return std::vector<Tensor>{std::move(out)};
  };
  return op;
}

OpDef make_variadic(VariadicSpec spec) {
  OpDef op;
  op.name = spec.name;
  op.doc = spec.doc;
  op.input_names = {"x"};
  op.min_inputs = 1;
  op.max_inputs = -1;
  op.onnx = {spec.onnx_type, spec.since_opset, {}};
  op.tags = {"elementwise", "variadic"};
  DTypeSet set = spec.dtypes;
  std::string name = spec.name;
  op.infer = [set, name](const std::vector<TensorType>& in, const Attrs& a, size_t n) {
    for (const auto& t : in)
      if (!dtype_in_set(t.dtype, set))
        fail("op '{}' needs {}, got {}", name, dtype_set_name(set), dtype_name(t.dtype));
    return infer_broadcast(in, a, n);
  };
  op.kernel = [f = spec.f, fi = spec.fi, finish = spec.finish](
                  const std::vector<const Tensor*>& in, const Attrs&,
                  const std::vector<TensorType>& out_types) {
    Tensor out(out_types[0]);
    std::vector<const Shape*> shapes;
    for (const Tensor* t : in) shapes.push_back(&t->shape());
    DType dt = out.dtype();
    size_t n = in.size();
    if (fi && !is_float(dt)) {
      for_each_broadcast(out.shape(), shapes, [&](int64_t i, const int64_t* off) {
        int64_t acc = in[0]->get_int(off[0]);
        for (size_t k = 1; k < n; ++k) acc = wrap_int(fi(acc, in[k]->get_int(off[k])), dt);
        out.set_int(i, acc);
      });
    } else {
      for_each_broadcast(out.shape(), shapes, [&](int64_t i, const int64_t* off) {
        double acc = in[0]->get(off[0]);
        for (size_t k = 1; k < n; ++k) acc = f(acc, in[k]->get(off[k]));
        out.set(i, finish ? finish(acc, n) : acc);
      });
    }
    return std::vector<Tensor>{std::move(out)};
  };
  return op;
}

int64_t wrapping_div(int64_t a, int64_t b) {
  if (b == 0) return 0;
  if (b == -1) return wrapping_neg(a);
  return a / b;
}

int64_t wrapping_rem(int64_t a, int64_t b) {
  if (b == 0 || b == -1) return 0;
  return a % b;
}

int64_t floored_mod(int64_t a, int64_t b) {
  int64_t r = wrapping_rem(a, b);
  // |r| < |b|, so adding b to a remainder of the other sign cannot overflow.
  if (r != 0 && (r < 0) != (b < 0)) r += b;
  return r;
}

int64_t wrapping_pow(int64_t a, int64_t e) {
  if (e < 0) {
    if (a == 1) return 1;
    if (a == -1) return (e & 1) ? -1 : 1;
    return 0;
  }
  int64_t result = 1;
  int64_t base = a;
  for (uint64_t k = static_cast<uint64_t>(e); k != 0; k >>= 1) {
    if (k & 1) result = wrapping_mul(result, base);
    base = wrapping_mul(base, base);
  }
  return result;
}

double round_half_even(double x) {
  double r = std::round(x);
  // std::round takes ties away from zero; a tie is moved to the even neighbour.
  if (std::fabs(x - std::trunc(x)) == 0.5) r = 2.0 * std::round(x / 2.0);
  return r;
}

}  // namespace retort
