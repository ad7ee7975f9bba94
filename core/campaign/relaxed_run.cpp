#include "core/campaign/relaxed_run.h"

#include "core/base/error.h"
#include "core/io/onnx_io.h"
#include "core/tensor/random_tensor.h"

namespace retort {

namespace {

constexpr int kDraws = 4;

}  // namespace

RelaxedRun run_relaxed_graph(const Graph& valid, Rng& rng, int violations,
                             const std::vector<Backend*>& backends) {
  RelaxedRun run;
  std::string onnx;
  for (int draw = 0; draw < kDraws && onnx.empty(); ++draw) {
    run.relaxed = relax_constraints(valid, rng, violations);
    try {
      onnx = export_onnx_unchecked(run.relaxed.graph);
    } catch (const Error&) {
      continue;  // something ONNX cannot carry at all: break other constraints
    }
  }
  if (onnx.empty())
    fail("no constraint-breaking graph of '{}' could be written as ONNX", valid.name);
  TensorMap inputs;
  for (const ValueInfo& in : run.relaxed.graph.inputs)
    inputs[in.name] = random_tensor(in.type, rng);
  for (Backend* b : backends) {
    if (b->info().kind == "reference") {
      run.results.emplace_back();
      continue;
    }
    RunRequest request{.graph = &run.relaxed.graph, .onnx = onnx, .inputs = inputs, .outputs = {}};
    run.results.emplace_back(b->run(request));
  }
  return run;
}

}  // namespace retort
