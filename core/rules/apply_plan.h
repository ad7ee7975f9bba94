// What a rule's applications decide, memoised. When a rule's clauses and computed right-hand-side
// attributes read only its class variables' types, its attribute variables and its parameters
// (no `is-const`), two matches with the same types and attribute values run those clauses to the
// same values for the same draws from the Rng. A plan keeps, per such binding, a tree of the
// outcomes: the parameters the `let`s between two `pick`s set, each pick's candidates and, per
// drawn candidate, what follows; at each leaf, the right-hand side's computed e-nodes. An
// application then draws from the Rng exactly as evaluating the clauses would, and evaluates
// each clause once per binding and draw instead of once per application: the transpose-wrap
// rules, which match nearly every add, mul and matmul, spent a fifth of saturation there.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/base/rng.h"
#include "core/egraph/egraph.h"
#include "core/egraph/id_table.h"
#include "core/rules/ematch.h"
#include "core/rules/rule.h"

namespace retort {

// Where running a rule's clauses over a match stopped: skipped (and why), at a pick whose
// candidates are listed (the draw is the caller's; `next` is the clause after it), or at the end.
struct ClauseRun {
  std::optional<std::string> skip;
  int pick = -1;  // the pick's parameter
  size_t next = 0;
};
// Runs the clauses of `rule` from `first` on over a match, setting `params`, up to and including
// the next pick, whose candidates it writes to `candidates`; appends what each `let` sets to
// `lets` when given. Throws Error naming the rule where a clause fails to evaluate.
ClauseRun run_clauses(const EGraph& eg, const Rule& rule, const Match& m, size_t first,
                      std::vector<Value>& params, std::vector<int64_t>& candidates,
                      std::vector<std::pair<int, Value>>* lets = nullptr);

// A right-hand-side node whose attributes or output depend on the match, as one leaf of a plan
// instantiated it: the e-node (children unset), or why it cannot be built.
struct PlannedNode {
  ENode node;
  std::optional<std::string> why;
};

class ApplyPlan {
 public:
  // Where a match's clauses end: skipped (and why), or at a leaf.
  struct Leaf {
    std::vector<Value> params;  // every parameter, as the clauses chose them
    // By right-hand-side pattern node; filled for the nodes with computed attributes or output.
    std::vector<PlannedNode> nodes;
    enum class State : uint8_t { Unknown, Ready, Unplanned } state = State::Unknown;
    uint32_t index = 0;  // in its plan's leaves, in the order they were reached
  };
  struct Outcome {
    const std::string* skip = nullptr;  // why the application is skipped
    Leaf* leaf = nullptr;               // otherwise: the leaf its draws reached
  };

  // A plan for the rule, or none unless Rule::plannable.
  static std::optional<ApplyPlan> for_rule(const Rule& rule);

  // Runs the application-time clauses of a match on `eg` as apply_match would, drawing from
  // `rng`; the leaf reached holds the parameters they chose. `params` is scratch (clauses not run
  // for this binding and draw before are evaluated there); throws Error naming the rule where a
  // clause fails to evaluate. The outcome's pointers are valid until the next call.
  Outcome run(const EGraph& eg, const Rule& rule, const Match& m, std::vector<Value>& params,
              std::vector<int64_t>& candidates, Rng& rng);

 private:
  explicit ApplyPlan(const Rule& rule);

  // The clauses from one up to the next pick, run with the parameters as they were there.
  struct Step {
    std::vector<std::pair<int, Value>> lets;  // the parameters set, in order
    std::optional<std::string> skip;
    int pick = -1;  // the pick ending the step (its parameter), or -1: the clauses end here
    std::vector<int64_t> candidates;
    std::vector<uint32_t> next;  // by candidate: the step after drawing it (0: not run yet)
    uint32_t leaf = 0;           // the clauses end here: index in leaves_ + 1
    size_t resume = 0;           // the clause after the pick
  };

  // The first step of the match's binding, or 0 when the binding is new (its key is kept for
  // add_root).
  uint32_t find_root(const EGraph& eg, const Match& m);
  uint32_t add_root(const EGraph& eg, const Rule& rule, const Match& m, std::vector<Value>& params,
                    std::vector<int64_t>& candidates);
  // Runs clauses from `first` on, appending the step; returns its index + 1.
  uint32_t add_step(const EGraph& eg, const Rule& rule, const Match& m, size_t first,
                    std::vector<Value>& params, std::vector<int64_t>& candidates);

  size_t n_classes_;
  // The rule has no parameter and a literal right-hand side (commutativity, associativity):
  // every match reaches the one leaf, whatever its binding.
  bool one_leaf_ = false;
  // Bindings seen: per root, its class types then its attribute values.
  std::vector<uint32_t> types_;
  std::vector<AttrValue> attrs_;
  std::vector<uint32_t> roots_;  // by binding: its first step + 1
  IdTable index_;                // bindings by hash
  std::vector<Step> steps_;
  std::vector<Leaf> leaves_;
  std::vector<uint32_t> key_types_;  // scratch: the match's binding
  size_t key_hash_ = 0;
  std::vector<std::pair<uint32_t, size_t>> path_;  // scratch: the steps run() went through, and
                                                   // the candidate drawn at each
};

}  // namespace retort
