// Applying a match: the rule's remaining clauses choose its parameters (from a seeded Rng), the
// right-hand side is instantiated and type-checked as a whole before anything is added, then
// added and merged with the matched class. Every application that changes the e-graph is
// recorded in the RewriteTrace, and replaying a trace on the same start e-graph redoes the same
// additions and merges in the same order: the same e-graph, bit for bit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/base/rng.h"
#include "core/egraph/egraph.h"
#include "core/rules/ematch.h"
#include "core/rules/rule.h"

namespace retort {

// An e-node spelled out by content, the same in every process: the op by name and the
// attributes by value (an ENode holds interned ids that only mean something inside the process
// that made them). Children are class ids, which replaying the trace reproduces. Trace files
// hold these, so a trace can be saved, read in a fresh process and replayed there.
struct TraceNode {
  std::string op;
  Attrs attrs;
  uint16_t out = 0, n_out = 1;
  std::vector<EClassId> children;
  bool operator==(const TraceNode&) const = default;
};
TraceNode trace_node(const ENode& n);
// The e-node again; throws Error for an op this build does not know.
ENode trace_enode(const TraceNode& n);

struct TraceStep {
  uint32_t step = 0;       // index in the trace (the Justification's step)
  uint32_t iteration = 0;  // the runner iteration it belongs to (RewriteTrace::iteration)
  std::string rule;
  EClassId eclass;            // the matched class
  std::optional<ENode> node;  // the matched root e-node (none for a bare ?x left-hand side)
  Subst subst;
  std::vector<Value> params;                  // every parameter (let and pick), by VarTable::params
  std::vector<EClassId> exposed;              // Expose rules: the classes made graph outputs
  EClassId rhs;                               // the right-hand side's term
  bool clean_before = true;                   // the e-graph was rebuilt when the step was applied
  size_t nodes_after = 0, classes_after = 0;  // e-graph size right after the merge
};

struct RewriteTrace {
  std::vector<TraceStep> steps;
  uint32_t iteration = 0;  // stamped on new steps; the runner advances it
};

// A step as s-expressions, for people: "(add I1 I2)", "?x = I1, ?y = I2", "r5 = 2",
// "(add I2 I1)". Rendered on demand (rendering every step while saturating would cost more than
// the rewriting); terms never change once added, so the text is the same at any later time.
struct StepText {
  std::string matched, subst, params, rhs;
};
StepText step_text(const EGraph& eg, const Rule& rule, const TraceStep& step);
// "#3 add-comm e7 (add I1 I2) => (add I2 I1) [?x = I1, ?y = I2] nodes=9 classes=6"; a step of
// a rule not in `rules` shows its terms without the substitution.
std::string step_str(const EGraph& eg, const RuleSet& rules, const TraceStep& step);
std::string trace_str(const EGraph& eg, const RuleSet& rules, const RewriteTrace& trace);

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
