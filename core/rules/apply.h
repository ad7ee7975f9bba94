// Applying a match: the rule's remaining clauses choose its parameters (from a seeded Rng), the
// right-hand side is instantiated and type-checked as a whole before anything is added, then
// added and merged with the matched class. Every application that changes the e-graph is
// recorded in the RewriteTrace, and replaying a trace on the same start e-graph redoes the same
// additions and merges in the same order: the same e-graph, bit for bit.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/rng.h"
#include "core/egraph/egraph.h"
#include "core/egraph/id_table.h"
#include "core/rules/apply_plan.h"
#include "core/rules/ematch.h"
#include "core/rules/rule.h"
#include "core/rules/trace.h"
#include "core/rules/unchanged_table.h"

namespace retort {

enum class ApplyOutcome {
  Applied,    // the e-graph changed
  Unchanged,  // the right-hand side was already in the matched class
  Skipped,    // an application-time `if` failed or a `pick` had no candidate
  Rejected,   // the right-hand side does not type (or would merge different types/constants)
};
std::string_view apply_outcome_name(ApplyOutcome o);

struct ApplyResult {
  ApplyOutcome outcome = ApplyOutcome::Applied;
  std::string reason;  // for Skipped and Rejected
  EClassId rhs;        // Applied, Unchanged: the right-hand side's class
};

// What the applications of one rule set share (a Runner keeps one, or uses its caller's, which
// carries it from run to run: RunnerCarry): for each right-hand side node whose
// attributes or output depend on the match, the e-node (children unset) that each set of those
// values gave, so that a repeated set is not built into an attribute map, interned and normalised
// against the registry again; and each rule's ApplyPlan, keyed by the type ids of one TypeTable
// (a memo given an e-graph with another table starts its plans afresh; an e-graph made after
// another on the same thread takes over its table, type_table.h). It keeps pointers to the rules
// and their pattern nodes: use one only while those rules live, unchanged. Ids of a fuzz case's
// AttrsScope are not kept.
class ApplyMemo {
 public:
  // A run of `rules` over `eg` begins: the unchanged applications recorded so far are forgotten
  // (they were of another e-graph, or of this one before changes no run saw), and everything
  // when the memo was used with another rule set, or its size changed.
  void begin(const EGraph& eg, const RuleSet& rules);

  // The lists an application works in (no part of the memo), kept from one application to the
  // next so that applying a match allocates only what it adds to the e-graph and the trace.
  struct Scratch {
    // One node of a right-hand side instance: an existing class, or an e-node still to be added.
    struct Slot {
      bool fresh = false;
      EClassId id;  // existing: the class
      ENode node;   // fresh: the e-node, children filled in when their slots are known
      std::span<const int> kids;  // fresh: the slots of its children (the pattern's list)
      TypeId type;
    };
    std::vector<Value> params;        // the rule's parameters, as its clauses choose them
    std::vector<int64_t> candidates;  // the values of a `pick` that pass its condition
    std::vector<Slot> slots;          // the right-hand side's nodes in order, the root last
    std::vector<AttrValue> values;    // a node's non-literal attributes while it is built
  };
  Scratch scratch;

  struct Key {
    const PatternNode* node;
    int64_t out;
    std::span<const AttrValue> values;  // the node's non-literal attributes, in p.attrs order
    size_t hash;
  };
  static Key key(const PatternNode& p, int64_t out, std::span<const AttrValue> values);
  const ENode* find(const Key& k);
  void insert(const Key& k, const ENode& node);

  // The rule's plan on this e-graph, or null when the rule has none (ApplyPlan::for_rule).
  ApplyPlan* plan(const EGraph& eg, const Rule& rule);

  // The index of the plan last asked for, among this type table's.
  size_t plan_index() const { return last_plan_; }
  // Applications of planned rules on this e-graph that left it unchanged, and whether
  // applications look them up and keep them: a record serves only a later iteration, so a
  // runner looks up none in its first iteration and keeps none in its last.
  UnchangedTable unchanged;
  bool look_up_unchanged = true, keep_unchanged = true;

 private:
  // Starts the unchanged applications afresh, as those of `eg`.
  void forget_unchanged(const EGraph& eg);

  struct Entry {
    const PatternNode* node;
    int64_t out;
    std::vector<AttrValue> values;
    ENode enode;
  };
  std::vector<Entry> entries_;
  IdTable index_;
  const RuleSet* rules_ = nullptr;  // begin()'s, and their number
  size_t n_rules_ = 0;
  const EGraph* unchanged_for_ = nullptr;
  uint64_t plans_for_ = 0;  // the serial of the type table the plans' keys are ids of
  std::vector<std::pair<const Rule*, std::optional<ApplyPlan>>> plans_;
  size_t last_plan_ = 0;  // the runner applies a rule's matches in a row
};

// Applies one match found on this e-graph (any state since the search; the runner applies a
// whole iteration's matches, then rebuilds). Clause evaluation errors throw Error naming the
// rule; an ill-typed right-hand side is Rejected without changing the e-graph.
// `memo`, when given, must have been used only with rules that still live.
ApplyResult apply_match(EGraph& eg, const Rule& rule, const Match& match, Rng& rng,
                        RewriteTrace& trace, ApplyMemo* memo = nullptr);

// Re-applies steps [from, to) with their recorded substitutions and parameters (no random
// draws), rebuilding wherever the original run had rebuilt, and rebuilds at the end. `eg` must
// be in the state the trace had before step `from` (the start e-graph for from = 0). Throws
// Error naming the step when a step does not replay (an unknown rule, or the e-graph differs).
void replay_trace(EGraph& eg, const RuleSet& rules, const RewriteTrace& trace, size_t from = 0,
                  size_t to = SIZE_MAX);

}  // namespace retort
