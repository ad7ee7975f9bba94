// A choice of one e-node per e-class, reachable from a root: what an extractor produces and
// what restore_graph turns into a Graph.
#pragma once

#include <map>

#include "core/egraph/enode.h"
#include "core/egraph/ids.h"

namespace retort {

struct Selection {
  EClassId root;                     // canonical id of the root class
  std::map<EClassId, ENode> chosen;  // canonical class -> its chosen canonical e-node
  double cost = 0;                   // the extractor's cost of the root (tree cost)

  const ENode& at(EClassId canonical_class) const { return chosen.at(canonical_class); }
};

}  // namespace retort
