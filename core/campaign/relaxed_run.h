// HirFuzz's constraint level 0 as a run (seeds/001 section 3.1.3): a valid graph with a few
// constraints broken (core/gen/relax.h), exported without inference, run with random inputs on
// every compiler for crashes only. `hirfuzz relax` and the hirfuzz campaign both ask this; the
// campaign draws the graph in its strategy (core/campaign/strategies/hirfuzz.cpp) and runs it
// in the case runner, which records the crashes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/backend/backend.h"
#include "core/base/rng.h"
#include "core/gen/relax.h"
#include "core/graph/graph.h"

namespace retort {

// A graph that breaks constraints, ready to run: its ONNX model and its inputs.
struct RelaxedCase {
  RelaxedGraph relaxed;
  std::string onnx;
  TensorMap inputs;
};

// Breaks `violations` constraints of `valid`; a breakage ONNX cannot carry at all is drawn again
// (up to 4 draws). Inputs are drawn after, from the same `rng`. Throws Error when none could be
// written as ONNX.
RelaxedCase draw_relaxed(const Graph& valid, Rng& rng, int violations);

// Parallel to the backends; none for a reference backend, which cannot run such a graph.
std::vector<std::optional<RunResult>> run_relaxed(const RelaxedCase& c,
                                                  const std::vector<Backend*>& backends);

struct RelaxedRun {
  RelaxedGraph relaxed;
  std::vector<std::optional<RunResult>> results;  // as run_relaxed gives them
};

// draw_relaxed, then run_relaxed.
RelaxedRun run_relaxed_graph(const Graph& valid, Rng& rng, int violations,
                             const std::vector<Backend*>& backends);

}  // namespace retort
