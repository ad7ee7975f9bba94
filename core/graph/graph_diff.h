// What changed between two graphs, node by node: the pure computation behind `render diff`.
// Nodes are matched by the identity of their first output value: its e-class when both graphs
// are variants of one e-graph (the caller passes the value -> class maps), else a structural
// signature (op, attributes, output index and the signatures of the inputs; inputs and
// constants by name).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>

#include "core/graph/graph.h"

namespace retort {

enum class DiffStatus {
  Same,       // a node with the same identity, op, attributes and inputs is in the other graph
  Added,      // only in B
  Removed,    // only in A
  Rewritten,  // the other graph computes the same value (same e-class, or with signatures the
              // same node name) with another op, attributes or inputs
};
std::string_view diff_status_name(DiffStatus s);  // "same", "added", "removed", "rewritten"

struct GraphDiff {
  std::map<std::string, DiffStatus> a;  // every node of A by name: Same, Removed or Rewritten
  std::map<std::string, DiffStatus> b;  // every node of B by name: Same, Added or Rewritten
  std::map<std::string, std::string> counterpart;  // a node of A -> B's node computing its value
  size_t count(DiffStatus s) const;  // nodes with that status; a Same or Rewritten pair: once
};

// A value name -> an identity number (an e-class id); values without one fall back to their
// structural signature.
using ValueClasses = std::map<std::string, uint32_t>;

GraphDiff diff_graphs(const Graph& a, const Graph& b);
GraphDiff diff_graphs(const Graph& a, const Graph& b, const ValueClasses& classes_a,
                      const ValueClasses& classes_b);

// The nodes of B that A does not compute the same way (Added or Rewritten): what the panes mark
// as new in a variant. With e-classes only a node whose own e-node changed is new; with
// signatures a change also renews everything computed from it.
std::set<std::string> new_nodes(const GraphDiff& d);

}  // namespace retort
