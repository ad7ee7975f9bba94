#include "core/session/trace_states.h"

#include "core/base/error.h"

namespace retort {

namespace {

EGraph replayed(const Graph& start, const RuleSet& rules, const RewriteTrace& trace, size_t t,
                GraphMeta* meta) {
  EGraph eg;
  GraphMeta m = add_graph(eg, start);
  eg.rebuild();
  replay_trace(eg, rules, trace, 0, t);
  if (meta) *meta = std::move(m);
  return eg;
}

}  // namespace

TraceStates::TraceStates(const Graph& start, const RuleSet& rules, const RewriteTrace& trace,
                         size_t length, const Selection& target)
    : start_(start), rules_(rules), trace_(trace), length_(length) {
  if (length > trace.steps.size())
    fail("the variant was extracted after trace step {}, but the trace has {} steps", length,
         trace.steps.size());
  // Replaying allocates the ids of the run that made the target, so its selection (canonical
  // when it was made) names classes of this e-graph, one e-node each.
  target_eg_ = replayed(start, rules, trace, length, nullptr);
  for (const auto& [c, n] : target.chosen) preferred_.insert(target_eg_.canonicalize(n));
}

const Extraction& TraceStates::at(size_t t) {
  if (t > length_) fail("state {} is past the variant (state {})", t, length_);
  if (auto it = states_.find(t); it != states_.end()) return it->second;
  // An e-node of state t canonicalises in the target's e-graph to the class it ended up in.
  GraphMeta meta;
  EGraph eg = replayed(start_, rules_, trace_, t, &meta);
  Extraction ex = extract_preferring(
      eg, meta, [&](const ENode& n) { return preferred_.count(target_eg_.canonicalize(n)) > 0; });
  return states_.emplace(t, std::move(ex)).first->second;
}

}  // namespace retort
