// A graph made ready for the reference interpreter to run many times (evaluate() in
// core/exec/interpreter.h prepares one and runs it once).
#pragma once

#include <vector>

#include "core/exec/interpreter.h"
#include "core/ops/prepared_kernels.h"

namespace retort {

// Values are numbered, constants are read in place (never copied per run), and the heavy
// kernels convert and pack their constant operands once (core/ops/prepared_kernels.h). Results
// are those of the registry kernels, bit for bit. The graph must outlive the PreparedGraph and
// not change while it lives.
class PreparedGraph {
 public:
  // g must have passed infer_graph.
  explicit PreparedGraph(const Graph& g);

  // Throws Error naming the node when a kernel fails or a node is opaque, and Error when an
  // input is missing or of the wrong type (evaluate's errors, in the same order).
  TensorMap run(const TensorMap& inputs, const EvalOptions& options = {}) const;

 private:
  static constexpr size_t kNone = static_cast<size_t>(-1);
  struct Step {
    const Node* node;
    std::vector<size_t> args;  // value slots; kNone for an omitted optional input
    std::vector<size_t> outs;
    std::vector<TensorType> out_types;
    std::vector<size_t> frees;  // slots last read here that are not graph outputs
    PreparedKernelFn prepared;  // empty: the registry kernel
  };

  const Graph& g_;
  std::vector<std::string> names_;        // per slot
  std::vector<const Tensor*> constants_;  // per slot; nullptr for inputs and node outputs
  std::vector<size_t> input_slots_, output_slots_;
  std::vector<Step> steps_;
};

}  // namespace retort
