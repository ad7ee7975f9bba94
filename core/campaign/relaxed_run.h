// HirFuzz's constraint level 0 as a run (seeds/001 section 3.1.3): a valid graph with a few
// constraints broken (core/gen/relax.h), exported without inference, run with random inputs on
// every compiler for crashes only. `hirfuzz relax` and the hirfuzz campaign both ask this.
#pragma once

#include <optional>
#include <vector>

#include "core/backend/backend.h"
#include "core/base/rng.h"
#include "core/gen/relax.h"
#include "core/graph/graph.h"

namespace retort {

struct RelaxedRun {
  RelaxedGraph relaxed;
  // Parallel to the backends; none for a reference backend, which cannot run such a graph.
  std::vector<std::optional<RunResult>> results;
};

// Breaks `violations` constraints of `valid`; a breakage ONNX cannot carry at all is drawn again
// (up to 4 draws). Throws Error when none could be written as ONNX.
RelaxedRun run_relaxed_graph(const Graph& valid, Rng& rng, int violations,
                             const std::vector<Backend*>& backends);

}  // namespace retort
