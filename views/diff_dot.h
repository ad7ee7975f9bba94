// The picture of a graph diff: the two graphs side by side, each a cluster named after it, with
// removed nodes (in A), added nodes (in B) and rewritten nodes (in both) filled in colours a
// legend names.
#pragma once

#include <string>

#include "core/graph/graph.h"
#include "core/graph/graph_diff.h"

namespace retort {

inline constexpr const char* kDiffAddedColor = "palegreen";
inline constexpr const char* kDiffRemovedColor = "lightpink";
inline constexpr const char* kDiffRewrittenColor = "lightgoldenrod";

// Clusters are `cluster_<name_a>` and `cluster_<name_b>` (the second gets " (2)" when both
// names are the same).
std::string diff_dot(const Graph& a, const std::string& name_a, const Graph& b,
                     const std::string& name_b, const GraphDiff& diff);

}  // namespace retort
