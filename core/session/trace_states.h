// The states between a graph and one of its extracted variants along the rewrite trace. State t
// replays the first t steps on the graph's e-graph and extracts the term closest to the variant
// (extract_preferring, the variant's e-nodes preferred): state 0 is the graph, the last state is
// the variant, and states t and t+1 differ only by what step t brought in. Bisection walks them.
#pragma once

#include <cstddef>
#include <map>
#include <unordered_set>

#include "core/egraph/convert.h"
#include "core/egraph/extract.h"
#include "core/rules/apply.h"

namespace retort {

class TraceStates {
 public:
  // target: a selection (a variant's) on the e-graph that the trace's first `length` steps made
  // from `start`. References must outlive this object.
  TraceStates(const Graph& start, const RuleSet& rules, const RewriteTrace& trace, size_t length,
              const Selection& target);

  size_t length() const { return length_; }
  // State t (0..length), extracted once and kept.
  const Extraction& at(size_t t);

 private:
  const Graph& start_;
  const RuleSet& rules_;
  const RewriteTrace& trace_;
  size_t length_;
  EGraph target_eg_;  // the e-graph the target was selected on, replayed
  std::unordered_set<ENode, ENodeHash> preferred_;  // the target's e-nodes, canonical there
  std::map<size_t, Extraction> states_;
};

}  // namespace retort
