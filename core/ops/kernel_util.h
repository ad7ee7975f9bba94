// Building blocks shared by the op families: broadcasting iteration, elementwise op builders and
// the common inference rules. Op files use these instead of re-deriving index arithmetic.
#pragma once

#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/base/error.h"
#include "core/ops/op_def.h"

namespace retort {

// Calls f(out_index, in_offsets) for every element of `out`, where in_offsets[k] is the flat
// offset of the element of input k that broadcasts to it.
void for_each_broadcast(const Shape& out, const std::vector<const Shape*>& in_shapes,
                        const std::function<void(int64_t, const int64_t*)>& f);

// Unravels a flat index into a multi-index for shape s.
void unravel(int64_t flat, const Shape& s, std::vector<int64_t>& index);
int64_t ravel(const std::vector<int64_t>& index, const std::vector<int64_t>& strides);

// Offsets of every multi-index of `shape` (row-major order) under the given strides, which may
// be broadcast (0) or summed for repeated axes. Reductions, batched products and einsum use it to
// precompute the sub-box they walk instead of re-deriving index arithmetic per element.
std::vector<int64_t> offsets_over(const Shape& shape, const std::vector<int64_t>& strides);

// The axes of a shape split into kept and selected ones. `kept` holds the offset of every index of
// the kept axes (row-major over them, which is also the order of a reduction's output) and
// `selected` the offset of every index of the selected axes, so that element (o, r) of the split
// sits at kept[o] + selected[r].
struct AxisSplit {
  std::vector<int64_t> kept, selected;
};
AxisSplit split_axes(const Shape& shape, const std::vector<bool>& selected);

// Element values widened for exact computation: every float dtype as double, every integer dtype
// (and bool) as int64. Kernels read an input once into one of these and loop over plain arrays.
std::vector<double> read_doubles(const Tensor& t);
std::vector<int64_t> read_ints(const Tensor& t);
template <typename T>
std::vector<T> read_as(const Tensor& t) {
  if constexpr (std::is_same_v<T, double>)
    return read_doubles(t);
  else
    return read_ints(t);
}
// A tensor of the given type holding values (rounded once, or wrapped to the dtype).
Tensor tensor_from(const TensorType& type, const std::vector<double>& values);
Tensor tensor_from(const TensorType& type, const std::vector<int64_t>& values);

// The identities of max and min: the lowest and highest value of a dtype (bool: 0 and 1; floats:
// -inf and +inf in the double form).
int64_t int_lowest(DType t);
int64_t int_highest(DType t);
template <typename T>
T lowest_of(DType t) {
  if constexpr (std::is_same_v<T, double>)
    return is_float(t) ? -std::numeric_limits<double>::infinity()
                       : static_cast<double>(int_lowest(t));
  else
    return int_lowest(t);
}
template <typename T>
T highest_of(DType t) {
  if constexpr (std::is_same_v<T, double>)
    return is_float(t) ? std::numeric_limits<double>::infinity()
                       : static_cast<double>(int_highest(t));
  else
    return int_highest(t);
}

// --- data movement ----------------------------------------------------------------------------
// These copy elements as raw bytes (dtype_size each), so they are exact for every dtype and never
// round through double. Offsets and strides count elements. Both throw Error if an offset would
// fall outside src or dst (a bug in the caller's plan, reported instead of corrupting memory).

// For every multi-index i over `extent`:
//   dst[dst_base + sum_d i_d * dst_strides[d]] = src[src_base + sum_d i_d * src_strides[d]].
// Strides may be zero (broadcast) or negative (reversed slices).
void copy_strided(const Tensor& src, int64_t src_base, const std::vector<int64_t>& src_strides,
                  Tensor& dst, int64_t dst_base, const std::vector<int64_t>& dst_strides,
                  const Shape& extent);

// Fills dst in row-major order over the extent [offsets[0].size(), offsets[1].size(), ...]
// (whose element count must be dst.numel()): the element at multi-index i comes from
// src[sum_d offsets[d][i_d]]. A negative entry in any offsets[d] leaves that element of dst as
// it was (pad uses this for the constant border).
void copy_by_offsets(const Tensor& src, const std::vector<std::vector<int64_t>>& offsets,
                     Tensor& dst);

// Sets every element of t to element 0 of value (same dtype), bytewise.
void fill_with(Tensor& t, const Tensor& value);

// --- inference rules -----------------------------------------------------------------------
// Throws unless t is one of the allowed dtypes; `what` names the operand ("input 'x'").
void require_dtype(const TensorType& t, std::initializer_list<DType> allowed, const std::string& what);
void require_float(const TensorType& t, const std::string& what);
void require_numeric(const TensorType& t, const std::string& what);  // not bool
void require_same_dtype(const std::vector<TensorType>& ts);
void require_rank(const TensorType& t, int64_t lo, int64_t hi, const std::string& what);
// Each axis in [-rank, rank-1] made non-negative, in the given order; throws Error naming `what`
// ("attribute 'axes'") on an axis out of range or given twice.
std::vector<int64_t> normalize_axes(const std::vector<int64_t>& axes, int64_t rank,
                                    const std::string& what);
// Attribute 'axis' made non-negative for the input of shape s that it indexes (`what` names the
// input: "input", "data"); throws Error when s is a scalar or the axis is outside [-rank, rank-1].
int64_t attr_axis(const Attrs& a, const Shape& s, std::string_view what);
// The spec of the attribute 'axis' that attr_axis reads (`doc` says what the axis is for); without
// a default it is required.
AttrSpec axis_attr(std::optional<int64_t> default_axis, const std::string& doc);
// Shape arithmetic on values that come from attributes: throws Error instead of overflowing.
int64_t checked_add(int64_t a, int64_t b);
int64_t checked_mul(int64_t a, int64_t b);
int64_t checked_numel(const Shape& s);

// Output = input 0's type.
std::vector<TensorType> infer_same_as_first(const std::vector<TensorType>& in, const Attrs&, size_t);
// The output shape of a one-output op, from input 0's shape and the node's attributes.
using ShapeFn = std::function<Shape(const Shape& in, const Attrs& attrs)>;
// Output = input 0's dtype under the shape that shape_of gives.
InferFn infer_same_dtype(ShapeFn shape_of);
// Output = broadcast of all inputs, dtype of input 0 (all inputs must share it).
std::vector<TensorType> infer_broadcast(const std::vector<TensorType>& in, const Attrs&, size_t);

// --- elementwise builders --------------------------------------------------------------------
// Which dtypes an elementwise op accepts.
enum class DTypeSet { Float, Numeric, SignedNumeric, Integer, Bool, Any };
bool dtype_in_set(DType t, DTypeSet set);
std::string_view dtype_set_name(DTypeSet set);

struct UnarySpec {
  std::string name, doc, onnx_type;
  DTypeSet dtypes = DTypeSet::Float;
  // The members below take {} so that a table row names only the fields it needs.
  std::function<double(double)> f{};     // float (and, without fi, integer) semantics
  std::function<int64_t(int64_t)> fi{};  // integer semantics, wrapped to the dtype after
  ValueDomain domain = ValueDomain::Any;
  std::vector<AttrSpec> attrs{};  // read by f_attrs / fi_attrs when given
  std::function<std::function<double(double)>(const Attrs&)> f_attrs{};     // f from attributes
  std::function<std::function<int64_t(int64_t)>(const Attrs&)> fi_attrs{};  // fi from attributes
  int since_opset = 13;
  KernelFn kernel{};  // when set, replaces the per-element kernel built from f and fi
};
OpDef make_unary(UnarySpec spec);

struct BinarySpec {
  std::string name, doc, onnx_type;
  DTypeSet dtypes = DTypeSet::Numeric;
  std::function<double(double, double)> f;
  std::function<int64_t(int64_t, int64_t)> fi;  // integer semantics (two's complement wrap after)
  // f and fi built from the node's attributes, when the semantics depend on them.
  std::function<std::function<double(double, double)>(const Attrs&)> f_attrs;
  std::function<std::function<int64_t(int64_t, int64_t)>(const Attrs&)> fi_attrs;
  // When set, b may have its own dtype from this set (pow's exponent); the output takes a's.
  // fi then runs only when both operands are integers, f otherwise.
  std::optional<DTypeSet> dtypes_b;
  bool bool_result = false;                      // comparisons and logic produce bool
  ValueDomain domain_a = ValueDomain::Any, domain_b = ValueDomain::Any;
  std::vector<AttrSpec> attrs;
  std::vector<std::string> tags;
  int since_opset = 13;
};
OpDef make_binary(BinarySpec spec);

// Ops over one or more inputs with multidirectional broadcasting that fold their operands left
// to right (max, min, sum, mean). Integers fold with fi and wrap to the dtype after each step.
struct VariadicSpec {
  std::string name, doc, onnx_type;
  DTypeSet dtypes = DTypeSet::Numeric;
  std::function<double(double, double)> f;
  std::function<int64_t(int64_t, int64_t)> fi;
  std::function<double(double, size_t)> finish;  // applied to the float fold of n operands
  int since_opset = 13;
};
OpDef make_variadic(VariadicSpec spec);

// Wrapping integer arithmetic without signed-overflow UB.
inline int64_t wrapping_add(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
inline int64_t wrapping_sub(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
inline int64_t wrapping_mul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}
inline int64_t wrapping_neg(int64_t a) { return wrapping_sub(0, a); }
// Truncating division and remainder, total: x/0 = 0, x%0 = 0, INT64_MIN/-1 wraps to INT64_MIN.
int64_t wrapping_div(int64_t a, int64_t b);
int64_t wrapping_rem(int64_t a, int64_t b);  // sign of the dividend (C, ONNX fmod=1)
int64_t floored_mod(int64_t a, int64_t b);   // sign of the divisor (Python, ONNX fmod=0)
// a^e by repeated squaring, wrapping; for e < 0 it is trunc(1 / a^-e) with 0^e = 0.
int64_t wrapping_pow(int64_t a, int64_t e);

// Float helpers that keep NaN: std::min/std::max drop a NaN depending on argument order.
inline double nan_max(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? a + b : (a < b ? b : a);
}
inline double nan_min(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? a + b : (b < a ? b : a);
}
// Rounds to the nearest integer, ties to even, without depending on the FP rounding mode.
double round_half_even(double x);

// Accumulation in the widened type: plain IEEE arithmetic in double, two's-complement wrap in
// int64. Kernels templated on the widened type use these so both paths share one loop.
inline double acc_add(double a, double b) { return a + b; }
inline int64_t acc_add(int64_t a, int64_t b) { return wrapping_add(a, b); }
inline double acc_mul(double a, double b) { return a * b; }
inline int64_t acc_mul(int64_t a, int64_t b) { return wrapping_mul(a, b); }

}  // namespace retort
