#include "core/ops/infer_rules.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/base/error.h"

namespace retort {

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

std::vector<TensorType> infer_same_as_first(const std::vector<TensorType>& in, const Attrs&,
                                            size_t) {
  return {in.at(0)};
}

std::vector<TensorType> infer_broadcast(const std::vector<TensorType>& in, const Attrs&, size_t) {
  require_same_dtype(in);
  Shape s = in.at(0).shape;
  for (size_t i = 1; i < in.size(); ++i) s = broadcast_shapes(s, in[i].shape);
  return {{in[0].dtype, s}};
}

int64_t checked_add(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) fail("dimension arithmetic {} + {} overflows int64", a, b);
  return r;
}

int64_t checked_mul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) fail("dimension arithmetic {} * {} overflows int64", a, b);
  return r;
}

int64_t checked_numel(const Shape& s) {
  int64_t n = 1;
  for (int64_t d : s) {
    if (d < 0) fail("negative dimension in shape {}", shape_str(s));
    if (__builtin_mul_overflow(n, d, &n))
      fail("shape {} has more elements than fit in int64", shape_str(s));
  }
  return n;
}

std::vector<int64_t> normalize_axes(const std::vector<int64_t>& axes, int64_t rank,
                                    const std::string& what) {
  std::vector<int64_t> out;
  std::vector<bool> seen(static_cast<size_t>(rank), false);
  for (int64_t a : axes) {
    if (a < -rank || a >= rank) fail("{}: axis {} is out of range for rank {}", what, a, rank);
    int64_t n = a < 0 ? a + rank : a;
    if (seen[n]) fail("{}: axis {} is given twice", what, n);
    seen[n] = true;
    out.push_back(n);
  }
  return out;
}

}  // namespace retort
