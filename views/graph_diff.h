// Which nodes of one graph are new compared with another, by structure rather than by name:
// two nodes are the same when they compute the same op, with the same attributes, over the same
// inputs (recursively). Names do not count, because extraction renames what it rebuilds.
#pragma once

#include <set>
#include <string>

#include "core/graph/graph.h"

namespace retort {

// Names of the nodes of `g` whose computation does not occur in `base`.
std::set<std::string> new_nodes(const Graph& g, const Graph& base);

}  // namespace retort
