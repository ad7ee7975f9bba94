// Einstein summation: the equation parser and the reference loop behind the einsum op.
#pragma once

#include <string>
#include <vector>

#include "core/tensor/tensor.h"

namespace retort {

// How to evaluate one equation on inputs of given shapes: every distinct label is an axis of the
// output or a summed axis, and each operand reaches it through a stride (the sum of the strides
// of its axes with that label, which is how a repeated label takes a diagonal; 0 where an
// ellipsis axis of extent 1 broadcasts).
struct EinsumPlan {
  Shape out_shape, sum_shape;
  std::vector<std::vector<int64_t>> out_strides, sum_strides;  // [operand][label]
};

// Parses and checks the equation against the input shapes. Implicit mode (no "->") outputs the
// ellipsis axes, then the labels used exactly once, in ASCII order. Throws Error naming the
// equation on malformed text, label extent mismatches or ellipsis axes that do not broadcast.
EinsumPlan plan_einsum(const std::string& equation, const std::vector<Shape>& shapes);

// Evaluates the plan: products of the operands summed over the summed labels, in double for
// float dtypes and wrapping int64 for integer ones, rounded once into `out`'s dtype.
Tensor run_einsum(const EinsumPlan& plan, const std::vector<const Tensor*>& inputs,
                  const TensorType& out);

}  // namespace retort
