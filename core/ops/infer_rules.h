// The common inference rules: dtype and rank checks, axes, overflow-checked shape arithmetic,
// and the output types of ops that keep or broadcast their inputs' types.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/ops/op_def.h"

namespace retort {

// Throws unless t is one of the allowed dtypes; `what` names the operand ("input 'x'").
void require_dtype(const TensorType& t, std::initializer_list<DType> allowed,
                   const std::string& what);
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
std::vector<TensorType> infer_same_as_first(const std::vector<TensorType>& in, const Attrs&,
                                            size_t);
// The output shape of a one-output op, from input 0's shape and the node's attributes.
using ShapeFn = std::function<Shape(const Shape& in, const Attrs& attrs)>;
// Output = input 0's dtype under the shape that shape_of gives.
InferFn infer_same_dtype(ShapeFn shape_of);
// Output = broadcast of all inputs, dtype of input 0 (all inputs must share it).
std::vector<TensorType> infer_broadcast(const std::vector<TensorType>& in, const Attrs&, size_t);

// The types of a kernel's inputs, for the inference helpers a kernel shares with its op's infer.
inline std::vector<TensorType> types_of(const std::vector<const Tensor*>& in) {
  std::vector<TensorType> types;
  for (const Tensor* t : in) types.push_back(t->type());
  return types;
}

}  // namespace retort
