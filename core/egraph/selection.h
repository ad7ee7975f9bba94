// A choice of one e-node per e-class, reachable from a root: what an extractor produces and
// what restore_graph turns into a Graph.
#pragma once

#include <utility>
#include <vector>

#include "core/egraph/enode.h"
#include "core/egraph/ids.h"

namespace retort {

struct Selection {
  using Choice = std::pair<EClassId, ENode>;  // canonical class, its chosen canonical e-node

  EClassId root;               // canonical id of the root class
  std::vector<Choice> chosen;  // sorted by class id, one per class (a flat map: built once, read
                               // often, so lookups are binary searches over contiguous memory)
  double cost = 0;             // the extractor's cost of the root (tree cost)

  // The chosen e-node of a class, or nullptr where the selection does not reach it.
  const ENode* find(EClassId canonical_class) const;
  bool contains(EClassId canonical_class) const { return find(canonical_class) != nullptr; }
  // Throws Error where the selection does not reach the class.
  const ENode& at(EClassId canonical_class) const;
  // Chooses `node` for the class, replacing its choice if it has one.
  void set(EClassId canonical_class, ENode node);
  // Takes other's choice for every class this selection does not reach.
  void fill_from(const Selection& other);
};

}  // namespace retort
