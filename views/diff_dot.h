// The picture of a graph diff: the two graphs side by side, each a cluster named after it, with
// removed nodes (in A), added nodes (in B) and rewritten nodes (in both) filled in colours a
// legend names. Unchanged regions away from the changes are drawn as one box each.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/graph/graph.h"
#include "core/graph/graph_diff.h"

namespace retort {

inline constexpr const char* kDiffAddedColor = "palegreen";
inline constexpr const char* kDiffRemovedColor = "lightpink";
inline constexpr const char* kDiffRewrittenColor = "lightgoldenrod";

// Connected nodes (through the values between them) that are the same in both graphs and have
// no changed neighbour, at least `min_nodes` of them, each as a region "unchanged N" (node name
// -> region): what a diff can draw as one box without hiding any change or its context.
std::map<std::string, std::string> unchanged_regions(
    const Graph& g, const std::map<std::string, DiffStatus>& status, size_t min_nodes = 3);

// The operands that moved in rewritten pairs that read the same operands in another order
// (mul-comm, add-comm): per node (A's names in `a`, B's in `b`) a colour per operand, "" for one
// that stayed; a moved operand has the same colour on both sides.
struct MovedOperands {
  std::map<std::string, std::vector<std::string>> a, b;
};
MovedOperands moved_operands(const Graph& a, const Graph& b, const GraphDiff& diff);

// Clusters are `cluster_<name_a>` and `cluster_<name_b>` (the second gets " (2)" when both
// names are the same). With `collapse`, unchanged regions are one box each. A node and its
// counterpart share a rank, so both sides are laid out alike, and a rewritten pair is linked by
// a dashed edge; operands that moved are coloured (moved_operands). The legend names every style
// drawn. The title is "A vs B" unless given.
std::string diff_dot(const Graph& a, const std::string& name_a, const Graph& b,
                     const std::string& name_b, const GraphDiff& diff, bool collapse = true,
                     const std::string& title = "");

}  // namespace retort
