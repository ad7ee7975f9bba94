// Text forms of e-graph contents: s-expressions of e-nodes and terms, and DOT text of an
// e-graph (pure text; laying it out is the views' job).
//
// S-expression form: an input or constant is its name; an op is `(op child... attr=value...)`,
// e.g. `(add I1 (transpose I2 perm=[1,0]))`; a multi-output e-node ends with `#out/n_out`
// (`(split x axis=0 #1/2)`); an opaque op shows its ONNX type, `(opaque:Conv x w)`; the root is
// `(graph_out o1 o2)`.
#pragma once

#include <set>

#include <string>
#include <vector>

#include "core/egraph/egraph.h"
#include "core/egraph/selection.h"

namespace retort {

// One e-node with its children as class ids: `(add e3 e7)`.
std::string enode_str(const EGraph& eg, const ENode& node);
// The term an id names (children are terms), abbreviated to "..." past max_nodes e-nodes.
std::string term_str(const EGraph& eg, EClassId term, size_t max_nodes = 64);
// The term a selection gives a class.
std::string selection_str(const EGraph& eg, const Selection& sel, EClassId cls,
                          size_t max_nodes = 256);

// The e-nodes an extraction chose, filled in `color` and named `label` in the legend (POLYJUICE
// Fig. 6 marks the min and the max choice this way). The selection may come from an earlier
// state of the e-graph: its classes and e-nodes are canonicalised before they are compared.
struct DotHighlight {
  const Selection* selection = nullptr;
  std::string color;
  std::string label;
};

struct DotOptions {
  // An e-node chosen by several highlights is striped in their colours.
  std::vector<DotHighlight> highlights;
  // The canonical classes to draw (classes_around, classes_chosen); empty: all of them. A child
  // class left out is drawn as a small dashed "eN" node, so the picture shows where it goes on.
  std::set<EClassId> only;
  size_t max_classes = 500;  // larger pictures are cut, with a note node saying so
  // Past this many e-nodes to draw, the picture is compact: one box per e-class listing its
  // e-nodes, one edge per pair of classes, no clusters, and Graphviz's layout search bounded.
  // Graphviz lays out clusters and the edges into them slowly: a few hundred e-nodes took seconds.
  size_t max_detailed_enodes = 200;
};

// The classes within `depth` edges of `center`, both ways (operands and users): the
// neighbourhood `render egraph --around eN --depth D` draws. Throws Error for an unknown class.
std::set<EClassId> classes_around(const EGraph& eg, EClassId center, size_t depth);
// The classes the highlights' selections chose e-nodes in (`render egraph --variants`).
std::set<EClassId> classes_chosen(const EGraph& eg, const std::vector<DotHighlight>& highlights);

// A digraph with one cluster per e-class (`cluster_e3`, labelled with id and type), one box per
// e-node, an edge from each e-node to the cluster of each child, and a legend cluster
// (`cluster_legend`) naming the highlights' colours when there are any. Past
// max_detailed_enodes it is compact instead: one box `c3` per class whose lines are its e-nodes
// (a chosen one names the highlights that chose it; the box is filled in their colours), and one
// edge per class and child class. `note`, when given, receives a line for the user saying how
// the picture is simplified or cut (empty when it is neither).
std::string egraph_dot(const EGraph& eg, const DotOptions& options = {},
                       std::string* note = nullptr);

}  // namespace retort
