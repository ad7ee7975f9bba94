// HirFuzz's constraint level 0 (seeds/001 section 3.1.3): a graph that breaks the constraints a
// compiler's front end must check (matching types and shapes, operand types an op accepts), to
// test that the compiler rejects it with an error instead of crashing. Retort starts from a
// valid generated graph and breaks a few constraints in it, so each breakage is named; the graph
// keeps the types it had before (stale on purpose) and is exported without inference or the
// ONNX checker (export_onnx_unchecked). Such a graph is only run for crashes: its outputs mean
// nothing.
#pragma once

#include <string>
#include <vector>

#include "core/base/rng.h"
#include "core/graph/graph.h"

namespace retort {

struct RelaxedGraph {
  Graph graph;
  std::vector<std::string> broken;  // one line per broken constraint, for people
};

// Breaks `violations` constraints of g (inferred) at random: an input's declared dtype or shape
// changed, a node input rewired to a value of another type, an integer attribute set to an
// arbitrary value.
RelaxedGraph relax_constraints(const Graph& g, Rng& rng, int violations);

}  // namespace retort
