// Applications known to leave the e-graph unchanged. The runner searches every rule afresh each
// iteration, so most matches it applies are the previous iteration's again; at 10k e-nodes nine
// applications in ten find their right-hand side in the matched class, having built it node by
// node and looked each node up to learn so. An application of a planned rule is decided by its
// key: the rule, the plan's leaf (the binding and the draws), the matched class and the class
// variables. Once one with a key has found or merged its right-hand side into the matched class,
// the table keeps the classes of its right-hand side's nodes; a later application with that key
// changes nothing while every class its nodes were looked up over is still canonical:
// - a class that stops being canonical never is again;
// - the hashcons drops only the entries of nodes over a class that stops being canonical, so
//   each lookup over canonical classes finds what it found when the record was made;
// - the root stays in the matched class (classes only merge).
// Exact: where the table says no, the application runs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/egraph/egraph.h"
#include "core/egraph/id_table.h"

namespace retort {

class UnchangedTable {
 public:
  // Sets the key of the application about to run: the plan, the leaf, the matched class and
  // the class variables (a view, kept until the next key).
  void key(uint32_t plan, uint32_t leaf, EClassId matched, std::span<const EClassId> classes);

  // Whether the application with the key leaves the e-graph unchanged.
  bool known(const EGraph& eg);

  // After the application with the key found or merged its right-hand side into the matched
  // class: the key's record's n_slots words, to be set to the canonical classes of its
  // right-hand side's nodes in pattern order, the root last.
  std::span<uint32_t> record(size_t n_slots);

  size_t size() const { return index_.size(); }

 private:
  static constexpr uint32_t kNone = UINT32_MAX, kUnknown = UINT32_MAX - 1;
  // Records, each: the plan, the leaf, the matched class, the number of class variables and
  // their classes, the number of slots and their classes.
  std::vector<uint32_t> words_;
  IdTable index_;  // records by key (an id is a record's first word in words_)
  // Where the key's record is (kNone: it has none).
  uint32_t find();
  size_t hash();  // the key's

  uint32_t plan_ = 0, leaf_ = 0, matched_ = 0;
  std::span<const EClassId> classes_;
  static constexpr size_t kNoHash = size_t{1} << 63;
  size_t hash_ = kNoHash;
  uint32_t at_ = kUnknown;  // the key's record as known() found it, kUnknown before
};

}  // namespace retort
