// Where a graph's values sit in an e-graph: for a graph extracted from it (a variant) or added
// to it (the start graph), each value's canonical e-class. `render diff` matches the nodes of
// two variants by these classes.
#pragma once

#include "core/egraph/egraph.h"
#include "core/graph/graph.h"
#include "core/graph/graph_diff.h"

namespace retort {

// Value name -> canonical class id, for every value whose term is in the e-graph (looked up
// from the inputs and constants up, without adding anything). Values of opaque nodes, and
// values computed from them, have no entry.
ValueClasses value_classes(const EGraph& eg, const Graph& g);

}  // namespace retort
