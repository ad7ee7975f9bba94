// Rewrite bisection: the first state along the trace from the original toward a failing variant
// (core/session/trace_states.h) that fails, the rewrite that made it fail, and the pair of
// graphs one rewrite apart. No peer has this; POLYJUICE users found bugs that only a middle state
// shows (pytorch#190765).
#pragma once

#include <functional>
#include <string>

#include "core/compare/signature.h"
#include "core/session/session.h"
#include "core/session/trace_states.h"

namespace retort {

struct BisectResult {
  size_t pass_state = 0;  // the last passing state; pass_state + 1 fails
  TraceStep step;         // trace.steps[pass_state]: the rewrite that flips the verdict
  Graph passing, failing;
  size_t tried = 0;  // states checked (each a compare run)
};

// Binary search for adjacent states t, t+1 with t passing and t+1 failing, given that state 0
// passes and the last state fails (checked, and an Error when not). `fails` is asked about
// O(log length) states.
BisectResult bisect_states(TraceStates& states, const RewriteTrace& trace,
                           const std::function<bool(const Graph&)>& fails);

struct BisectOptions {
  std::string variant, backend;
  uint64_t seed = 1;
  size_t runs = 1;
  ToleranceTable tolerances;
  InputPlan inputs;
};

struct VariantBisection {
  FailureSignature signature;  // the variant's failure, with the rule filled in
  BisectResult result;
  size_t length = 0;      // states after the original
  std::string step_text;  // step_str of the flipping step
};

// Bisects the session's variant on a backend: the failure to reach is the variant's first bug
// finding when compared with the e-graph's start graph on ref and the backend; a state fails when
// it shows a finding with that signature. Throws Error when the variant passes, was not extracted
// from the current e-graph, or the start graph fails the same way.
VariantBisection bisect_variant(Session& s, const BisectOptions& options);

}  // namespace retort
