// Graph <-> e-graph. A graph becomes one term per node output, with a single graph_out e-node
// over the output classes as the root; the metadata kept alongside (input order, original value
// and node names, output names) lets any extracted choice of e-nodes become a valid Graph again.
#pragma once

#include <string>
#include <vector>

#include "core/egraph/egraph.h"
#include "core/egraph/selection.h"
#include "core/graph/graph.h"

namespace retort {

// The names of a term that a node output of the graph became.
struct OriginalValue {
  EClassId term;
  std::string value;  // the value's name
  std::string node;   // its node's name
};

struct GraphMeta {
  std::string name;                         // the graph's name
  std::vector<std::string> input_names;     // every input, in the graph's order
  std::vector<std::string> constant_names;  // constants, in the graph's order
  std::vector<std::string> output_names;    // the original outputs, in order
  EClassId root;                            // the graph_out term
  // One per term that node outputs became, in increasing term order; a term two identical
  // nodes share keeps the names of the first.
  std::vector<OriginalValue> originals;

  // The names of an original term, or nullptr where no node output became it.
  const OriginalValue* original(EClassId term) const;
};

// Adds g (which must have passed infer_graph) to eg and returns its metadata. Nodes the
// registry does not know (opaque) are kept as opaque e-nodes. Throws Error for a node with an
// omitted optional input in the middle, which an e-node cannot express.
GraphMeta add_graph(EGraph& eg, const Graph& g);

// The Graph for a selection rooted at meta.root's class. Shared classes become one value;
// e-nodes of one multi-output op (same op, attrs, children) become one node; values and nodes
// keep their original names where the chosen e-node is the original one, else get fresh names.
// Outputs that compute an original output keep its name wherever the chosen graph_out lists them
// (through an identity node when an output became an input, a constant or a duplicate of another
// output); extra graph_out children become extra outputs, named after the original value their
// class holds where that name is free. The result is typed from the e-class analysis, exactly as
// infer_graph would type it (the tests check this on every sample and on generated graphs).
Graph restore_graph(const EGraph& eg, const GraphMeta& meta, const Selection& selection);

// restore_graph's graph with its depth (what graph_depth gives for it), measured on the classes
// while the graph is built rather than by looking up every value's name afterwards.
struct RestoredGraph {
  Graph graph;
  size_t depth = 0;
};
RestoredGraph restore_measured(const EGraph& eg, const GraphMeta& meta, const Selection& selection);

}  // namespace retort
