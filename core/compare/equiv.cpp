#include "core/compare/equiv.h"

#include <chrono>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/base/error.h"
#include "core/compare/undefined_check.h"
#include "core/egraph/convert.h"
#include "core/exec/inputs.h"

namespace retort {

namespace {

std::vector<std::string> input_list(const Graph& g) {
  std::vector<std::string> out;
  for (const auto& in : g.inputs) out.push_back(fmt::format("{}: {}", in.name, in.type.str()));
  return out;
}

// The first seed (from options.seed) whose inputs make an output of a and b differ on the
// reference.
void search_counterexample(const Graph& a, const Graph& b, const EquivOptions& o, EquivResult& r) {
  for (size_t t = 0; t < o.tries; ++t) {
    uint64_t seed = o.seed + t;
    ++r.tried;
    TensorMap inputs = generate_inputs(a, seed, nullptr, o.inputs);
    TensorMap va, vb;
    try {
      va = evaluate(a, inputs, {.keep_intermediates = true});
      vb = evaluate(b, inputs, {.keep_intermediates = true});
    } catch (const Error&) {
      ++r.undefined;
      continue;
    }
    if (find_undefined(a, va) || find_undefined(b, vb)) {
      ++r.undefined;
      continue;
    }
    for (auto [i, j] : r.pairs) {
      OutputDiff d = diff_tensors(va.at(a.outputs[i]), vb.at(b.outputs[j]), o.tolerances);
      if (d.verdict == Verdict::Pass) continue;
      d.actual_name = a.outputs[i];
      d.expected_name = b.outputs[j];
      r.counterexample_seed = seed;
      r.counterexample = d.str();
      return;
    }
  }
}

}  // namespace

OutputMatch check_variant_interface(const Graph& original, const Graph& variant,
                                    const std::string& variant_name) {
  if (input_list(original) != input_list(variant))
    fail("'{}' has inputs ({}) but the original has ({})", variant_name,
         fmt::join(input_list(variant), ", "), fmt::join(input_list(original), ", "));
  return match_outputs(original, variant, variant_name);
}

EquivResult prove_equivalent(const Graph& a, const Graph& b, const RuleSet& rules,
                             const EquivOptions& o) {
  EquivResult r;
  // The graph with more outputs is the variant: it may list the other's in another order and
  // expose intermediate values besides.
  if (a.outputs.size() > b.outputs.size()) {
    OutputMatch m = check_variant_interface(b, a, "A");
    for (size_t k = 0; k < b.outputs.size(); ++k) r.pairs.emplace_back(m.of_original[k], k);
  } else {
    OutputMatch m = check_variant_interface(a, b, "B");
    for (size_t k = 0; k < a.outputs.size(); ++k) r.pairs.emplace_back(k, m.of_original[k]);
  }
  EGraph eg;
  GraphMeta meta_a = add_graph(eg, a);
  GraphMeta meta_b = add_graph(eg, b);
  eg.rebuild();
  const std::vector<EClassId> outs_a(eg.term(meta_a.root).children.begin(),
                                     eg.term(meta_a.root).children.end());
  const std::vector<EClassId> outs_b(eg.term(meta_b.root).children.begin(),
                                     eg.term(meta_b.root).children.end());
  auto met = [&] {
    for (auto [i, j] : r.pairs)
      if (!eg.same(outs_a[i], outs_b[j])) return false;
    return true;
  };

  RunnerOptions limits;
  limits.node_limit = o.node_limit;
  limits.cancel = o.cancel;
  limits.seed = o.seed;
  // Every rule searched every iteration, so an iteration that changes nothing means saturated.
  limits.scheduler = SchedulerKind::Simple;
  Runner runner(eg, rules, limits);
  RewriteTrace trace;
  const auto t0 = std::chrono::steady_clock::now();
  while (!(r.proven = met())) {
    double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (r.iterations >= o.iter_limit) r.stopped = "iteration limit";
    if (eg.node_count() >= o.node_limit) r.stopped = "node limit";
    if (o.time_limit_s > 0 && elapsed > o.time_limit_s) r.stopped = "time limit";
    if (o.cancel && o.cancel->load()) r.stopped = "interrupted";
    if (!r.stopped.empty()) break;
    IterationReport it = runner.step(trace);
    ++r.iterations;
    if (it.applied == 0 && it.rebuild_merges == 0 && !met()) {
      r.stopped = "saturated";
      break;
    }
  }
  r.nodes = eg.node_count();
  if (r.proven) {
    for (auto [i, j] : r.pairs) r.proofs.push_back(eg.explain(outs_a[i], outs_b[j]));
    return r;
  }
  search_counterexample(a, b, o, r);
  return r;
}

}  // namespace retort
