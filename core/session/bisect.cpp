#include "core/session/bisect.h"

#include <fmt/format.h>

#include "core/base/error.h"

namespace retort {

namespace {

// The signatures of the bug findings of `name` in a compare of the start graph and `g`.
std::vector<FailureSignature> failures_of(Session& s, const Graph& g, const std::string& name,
                                          const BisectOptions& o) {
  const Graph& start = s.egraph().start;
  std::vector<Backend*> backends{&s.backends().get("ref"), &s.backends().get(o.backend)};
  std::vector<CompareGraph> graphs{{"original", &start}};
  if (name != "original") graphs.push_back({name, &g});
  CompareReport report = run_compare(
      graphs, backends, {.seed = o.seed, .runs = o.runs, .tolerances = o.tolerances}, o.inputs);
  SignatureFinder finder(report, backends, {}, &s.egraph().eg);
  std::vector<FailureSignature> out;
  for (const Finding& f : report.findings)
    if (is_bug(f.verdict) && f.graph_a == name) out.push_back(finder.of(f));
  return out;
}

bool shows(const std::vector<FailureSignature>& found, const FailureSignature& wanted) {
  return std::find(found.begin(), found.end(), wanted) != found.end();
}

}  // namespace

BisectResult bisect_states(TraceStates& states, const RewriteTrace& trace,
                           const std::function<bool(const Graph&)>& fails) {
  BisectResult r;
  size_t lo = 0, hi = states.length();
  auto check = [&](size_t t) {
    ++r.tried;
    return fails(states.at(t).graph);
  };
  if (check(lo)) fail("the first state (the original) already fails: nothing to bisect");
  if (hi == 0 || !check(hi)) fail("the last state (the variant) does not fail");
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    (check(mid) ? hi : lo) = mid;
  }
  r.pass_state = lo;
  r.step = trace.steps.at(lo);
  r.passing = states.at(lo).graph;
  r.failing = states.at(hi).graph;
  return r;
}

VariantBisection bisect_variant(Session& s, const BisectOptions& o) {
  const Variant& v = s.variant_info(o.variant);
  if (!v.selection)
    fail(
        "variant '{}' was not extracted from the current e-graph: bisect walks the trace to an "
        "extracted variant",
        o.variant);
  const EGraphWork& w = s.egraph();
  std::vector<FailureSignature> target = failures_of(s, v.graph, o.variant, o);
  if (target.empty())
    fail("variant '{}' does not fail on {} (seed {}, {} run(s)): nothing to bisect", o.variant,
         o.backend, o.seed, o.runs);
  VariantBisection out;
  out.signature = target[0];
  if (shows(failures_of(s, w.start, "original", o), out.signature))
    fail("the original fails the same way ({}): the failure is not brought in by a rewrite",
         out.signature.str());
  TraceStates states(w.start, s.rules().all(), w.trace, v.trace_length, *v.selection);
  out.length = states.length();
  out.result = bisect_states(states, w.trace, [&](const Graph& g) {
    return shows(failures_of(s, g, "state", o), out.signature);
  });
  out.signature.rule = out.result.step.rule;
  out.step_text = step_str(w.eg, s.rules().all(), out.result.step);
  return out;
}

}  // namespace retort
