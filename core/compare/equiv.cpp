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
    for (size_t k = 0; k < a.outputs.size(); ++k) {
      OutputDiff d = diff_tensors(va.at(a.outputs[k]), vb.at(b.outputs[k]), o.tolerances);
      if (d.verdict == Verdict::pass) continue;
      d.actual_name = a.outputs[k];
      d.expected_name = b.outputs[k];
      r.counterexample_seed = seed;
      r.counterexample = d.str();
      return;
    }
  }
}

}  // namespace

void check_variant_interface(const Graph& original, const Graph& variant,
                             const std::string& variant_name) {
  if (input_list(original) != input_list(variant))
    fail("'{}' has inputs ({}) but the original has ({})", variant_name,
         fmt::join(input_list(variant), ", "), fmt::join(input_list(original), ", "));
  if (original.outputs.size() != variant.outputs.size())
    fail("'{}' has {} outputs but the original has {}", variant_name, variant.outputs.size(),
         original.outputs.size());
  for (size_t k = 0; k < original.outputs.size(); ++k) {
    const TensorType& want = original.type_of(original.outputs[k]);
    const TensorType& got = variant.type_of(variant.outputs[k]);
    if (want != got)
      fail("output {} of '{}' ('{}') is {} but the original's ('{}') is {}", k, variant_name,
           variant.outputs[k], got.str(), original.outputs[k], want.str());
  }
}

EquivResult prove_equivalent(const Graph& a, const Graph& b, const RuleSet& rules,
                             const EquivOptions& o) {
  check_variant_interface(a, b, "B");
  EGraph eg;
  GraphMeta meta_a = add_graph(eg, a);
  GraphMeta meta_b = add_graph(eg, b);
  eg.rebuild();
  const std::vector<EClassId> outs_a(eg.term(meta_a.root).children.begin(),
                                     eg.term(meta_a.root).children.end());
  const std::vector<EClassId> outs_b(eg.term(meta_b.root).children.begin(),
                                     eg.term(meta_b.root).children.end());
  auto met = [&] {
    for (size_t k = 0; k < outs_a.size(); ++k)
      if (!eg.same(outs_a[k], outs_b[k])) return false;
    return true;
  };

  EquivResult r;
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
    for (size_t k = 0; k < outs_a.size(); ++k) r.proofs.push_back(eg.explain(outs_a[k], outs_b[k]));
    return r;
  }
  search_counterexample(a, b, o, r);
  return r;
}

}  // namespace retort
