// Applying a match: the rule's remaining clauses choose its parameters (from a seeded Rng), the
// right-hand side is instantiated and type-checked as a whole before anything is added, then
// added and merged with the matched class. Every application that changes the e-graph is
// recorded in the RewriteTrace, and replaying a trace on the same start e-graph redoes the same
// additions and merges in the same order: the same e-graph, bit for bit.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "core/base/rng.h"
#include "core/egraph/egraph.h"
#include "core/rules/ematch.h"
#include "core/rules/rule.h"
#include "core/rules/trace.h"

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

// Applies one match found on this e-graph (any state since the search; the runner applies a
// whole iteration's matches, then rebuilds). Clause evaluation errors throw Error naming the
// rule; an ill-typed right-hand side is Rejected without changing the e-graph.
ApplyResult apply_match(EGraph& eg, const Rule& rule, const Match& match, Rng& rng,
                        RewriteTrace& trace);

// Re-applies steps [from, to) with their recorded substitutions and parameters (no random
// draws), rebuilding wherever the original run had rebuilt, and rebuilds at the end. `eg` must
// be in the state the trace had before step `from` (the start e-graph for from = 0). Throws
// Error naming the step when a step does not replay (an unknown rule, or the e-graph differs).
void replay_trace(EGraph& eg, const RuleSet& rules, const RewriteTrace& trace, size_t from = 0,
                  size_t to = SIZE_MAX);

}  // namespace retort
