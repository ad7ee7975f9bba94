// The record of the rewrites applied to an e-graph: each step's rule, matched class,
// substitution, parameters and right-hand side, spelled so that a trace can be saved, read in
// a fresh process and replayed there (core/rules/apply.h replays it, trace_json.h stores it),
// and printed for people.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

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
  std::vector<Value> params;  // every parameter (let and pick), by VarTable::params
  // Expose rules: the classes made graph outputs; Reorder rules: the outputs in their new order.
  std::vector<EClassId> exposed;
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

}  // namespace retort
