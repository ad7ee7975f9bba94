#include "core/campaign/relaxed_run.h"

#include "core/base/error.h"
#include "core/io/onnx_io.h"
#include "core/tensor/random_tensor.h"

namespace retort {

namespace {

constexpr int kDraws = 4;

}  // namespace

RelaxedCase draw_relaxed(const Graph& valid, Rng& rng, int violations) {
  RelaxedCase c;
  for (int draw = 0; draw < kDraws && c.onnx.empty(); ++draw) {
    c.relaxed = relax_constraints(valid, rng, violations);
    try {
      c.onnx = export_onnx_unchecked(c.relaxed.graph);
    } catch (const Error&) {
      continue;  // something ONNX cannot carry at all: break other constraints
    }
  }
  if (c.onnx.empty())
    fail("no constraint-breaking graph of '{}' could be written as ONNX", valid.name);
  for (const ValueInfo& in : c.relaxed.graph.inputs)
    c.inputs[in.name] = random_tensor(in.type, rng);
  return c;
}

std::vector<std::optional<RunResult>> run_relaxed(const RelaxedCase& c,
                                                  const std::vector<Backend*>& backends) {
  std::vector<std::optional<RunResult>> results;
  for (Backend* b : backends) {
    if (b->info().kind == "reference") {
      results.emplace_back();
      continue;
    }
    RunRequest request{
        .graph = &c.relaxed.graph, .onnx = c.onnx, .inputs = c.inputs, .outputs = {}};
    results.emplace_back(b->run(request));
  }
  return results;
}

RelaxedRun run_relaxed_graph(const Graph& valid, Rng& rng, int violations,
                             const std::vector<Backend*>& backends) {
  RelaxedCase c = draw_relaxed(valid, rng, violations);
  std::vector<std::optional<RunResult>> results = run_relaxed(c, backends);
  return {std::move(c.relaxed), std::move(results)};
}

}  // namespace retort
