// The proof forest (egg's src/explain.rs): every term id is a node of the forest, and each union
// adds one edge between the two terms it was given, labelled with its justification. The trees
// are exactly the e-classes, and the unique path between two terms of a class is a proof that
// they are equal (EGraph::explain walks it; a congruence edge is proved in turn by the paths
// between the two terms' children).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/egraph/ids.h"
#include "core/egraph/justification.h"

namespace retort {

class ProofForest {
 public:
  // Justifications are interned: 0 is congruence, k > 0 the k-th rule application.
  static constexpr uint32_t kCongruence = 0;

  struct Edge {
    EClassId from, to;
    uint32_t just;
    bool backward;  // the rewrite went from `to` to `from`
  };

  void reserve(size_t n) { links_.reserve(n); }
  // A new term: a tree of its own. Terms are added in id order.
  void add_term(EClassId id) { links_.push_back({id, kCongruence, true}); }
  // Records that a and b are equal for `just` (a and b in different trees).
  void connect(EClassId a, EClassId b, uint32_t just);
  // The path from a to b, as edges in walking order; throws Error when they are in different
  // trees.
  std::vector<Edge> path(EClassId a, EClassId b) const;

  uint32_t intern(const Justification& why);
  Justification justification(uint32_t just) const;
  // The trace step of a rule justification (just > 0).
  uint32_t step_of(uint32_t just) const { return justs_[just - 1].step; }

  // Bytes of its two tables' storage, for EGraph::memory().
  size_t links_bytes() const { return links_.capacity() * sizeof(Link); }
  size_t justs_bytes() const { return justs_.capacity() * sizeof(RuleJust); }

 private:
  // 8 bytes per term: the direction shares a word with the justification (at most 2^31 - 1
  // rule applications, which intern() checks).
  struct Link {
    EClassId next;                // towards the root of the tree; itself at the root
    uint32_t just : 31 = 0;       // kCongruence, or k: justs_[k - 1]
    uint32_t forward : 1 = true;  // the rewrite went from this term to `next`
  };
  static_assert(sizeof(Link) == 8);
  struct RuleJust {
    uint32_t rule;  // index into rule_names_
    uint32_t step;
  };
  // Reverses the links on the path from `term` to its root, so that `term` becomes the root.
  void reroot(EClassId term);

  std::vector<Link> links_;  // by term id
  std::vector<RuleJust> justs_;
  std::vector<std::string> rule_names_;
  std::unordered_map<std::string, uint32_t> rule_index_;
  // The rule of the latest rule justification: a runner applies one rule's matches in a row, so
  // intern() compares the name with it before hashing the name.
  uint32_t last_rule_ = 0;
};

}  // namespace retort
