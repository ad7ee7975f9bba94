// Kernels bound to one node of one graph, for the ops whose kernels do heavy per-graph work
// (conv, matmul, gemm): converting and packing constant weights, building window tables. The
// interpreter (core/exec/prepared_graph.h) prepares them once and runs them many times; the
// results are those of the op's registry kernel, bit for bit (each registry kernel is its
// prepared kernel with no constants, made and run once).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/ops/attrs.h"
#include "core/tensor/tensor.h"

namespace retort {

// Takes the node's operands as the registry kernel does (constant operands included).
using PreparedKernelFn =
    std::function<std::vector<Tensor>(const std::vector<const Tensor*>& inputs)>;
// `constants[i]` is operand i when the graph holds it as a constant (it outlives the prepared
// kernel and never changes), nullptr otherwise; `inputs` are the operand types as input_types
// gives them (a trailing omitted optional operand left out). Throws Error as the kernel would.
using PrepareFn = std::function<PreparedKernelFn(
    const std::vector<const Tensor*>& constants, const std::vector<TensorType>& inputs,
    const Attrs& attrs, const std::vector<TensorType>& outputs)>;

// The op's prepare function, or nullptr when its registry kernel is all there is.
const PrepareFn* find_prepare(const std::string& op);

PreparedKernelFn prepare_conv(const std::vector<const Tensor*>& constants,
                              const std::vector<TensorType>& inputs, const Attrs& attrs,
                              const std::vector<TensorType>& outputs);
PreparedKernelFn prepare_matmul(const std::vector<const Tensor*>& constants,
                                const std::vector<TensorType>& inputs, const Attrs& attrs,
                                const std::vector<TensorType>& outputs);
PreparedKernelFn prepare_gemm(const std::vector<const Tensor*>& constants,
                              const std::vector<TensorType>& inputs, const Attrs& attrs,
                              const std::vector<TensorType>& outputs);

}  // namespace retort
