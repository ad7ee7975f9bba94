// The `precision` verdict: a compiler may compute f16 (or f32) ops in a wider type and skip some
// of the roundings back to the declared dtype (ONNX Runtime runs f16 Exp as f32 and may not round
// before a Cast to f64). Such a result lies between the reference, which rounds after every op,
// and an evaluation that never rounds below f64. A difference inside that band is shown, but is
// not a miscompilation unless asked (docs/compare.md).
#pragma once

#include <optional>

#include "core/compare/tensor_diff.h"
#include "core/compare/tolerance.h"
#include "core/exec/interpreter.h"
#include "core/graph/graph.h"

namespace retort {

// g with every f16 and f32 value (inputs, constants, node results, dtype attributes) made f64,
// so that evaluating it rounds nothing below double precision. Empty when g has opaque nodes or
// its ops do not take f64 there.
std::optional<Graph> widened_graph(const Graph& g);

// The inputs converted to the widened graph's input types.
TensorMap widen_inputs(const Graph& wide, const TensorMap& inputs);

// Whether every element of `actual` lies within the tolerance of the band between the
// reference's value and the widened evaluation's (both the same output).
bool within_precision_band(const Tensor& actual, const Tensor& reference, const Tensor& wide,
                           const ToleranceTable& tolerances);

}  // namespace retort
