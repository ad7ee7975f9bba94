#include "core/exec/interpreter.h"

#include "core/exec/prepared_graph.h"

namespace retort {

TensorMap evaluate(const Graph& g, const TensorMap& inputs, const EvalOptions& options) {
  return PreparedGraph(g).run(inputs, options);
}

}  // namespace retort
