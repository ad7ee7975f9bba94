// Hand-written variants and proofs: `variant add` makes a graph a variant of the original after
// checking that it has the same interface; `equiv` proves two graphs equal with the rules, or
// looks for a counterexample.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "app/commands.h"
#include "app/sigint_cancels.h"
#include "core/base/error.h"
#include "core/compare/equiv.h"
#include "core/io/graph_files.h"
#include "core/tensor/number_text.h"

namespace retort {

namespace {

// How a variant's outputs stand for the original's: "outputs: d as o, a as s (in another
// order); extra: b, c". Empty when they are the original's outputs, in order.
std::string outputs_text(const Graph& original, const Graph& variant, const OutputMatch& m) {
  if (m.extra.empty() && variant.outputs == original.outputs) return {};
  std::vector<std::string> listed;
  bool reordered = false;
  for (size_t k = 0; k < m.of_original.size(); ++k) {
    const std::string& name = variant.outputs[m.of_original[k]];
    reordered |= m.of_original[k] != k;
    listed.push_back(
        name == original.outputs[k] ? name : fmt::format("{} as {}", name, original.outputs[k]));
  }
  std::string text =
      fmt::format("outputs: {}{}", fmt::join(listed, ", "), reordered ? " (in another order)" : "");
  std::vector<std::string> extra;
  for (size_t i : m.extra) extra.push_back(variant.outputs[i]);
  if (!extra.empty())
    text += fmt::format("; extra: {} (compared between variants that expose the same value)",
                        fmt::join(extra, ", "));
  return text;
}

void add_variant(Session& s, const Args& args, Output& out) {
  const std::string* name = args.arg(1);
  if (*name == "original") fail("'original' names the original graph; choose another name");
  if (s.find_variant(*name)) fail("variant '{}' exists already", *name);
  const std::string* file = args.arg(2);
  bool from_current = args.has("--from");
  if (!file && !from_current)
    fail("variant add {} needs a FILE, or --from to take the current graph", *name);
  if (file && from_current) fail("give a FILE or --from, not both");
  if (from_current) {
    // The hand-edited current graph becomes the variant; the e-graph's start graph is the
    // original it must equal, and the current graph again.
    if (!s.has_egraph())
      fail(
          "--from needs an e-graph: its start graph is the original that the current graph "
          "becomes a variant of (run `egraph` before editing)");
    Graph variant = s.graph();
    const Graph& original = s.egraph().start;
    OutputMatch match = check_variant_interface(original, variant, *name);
    std::string outputs = outputs_text(original, variant, match);
    s.set_variant(*name, std::move(variant));
    s.set_graph(original);
    out.print("variant {}: the current graph ({} ops); the current graph is the original again",
              *name, s.variant(*name).op_count());
    if (!outputs.empty()) out.print("{}", outputs);
    return;
  }
  Graph variant = load_graph_file(*file);
  OutputMatch match = check_variant_interface(s.graph(), variant, *name);
  std::string outputs = outputs_text(s.graph(), variant, match);
  out.print("variant {}: {} ({} ops), the original's inputs{}", *name, *file, variant.op_count(),
            outputs.empty() ? " and outputs" : "");
  if (!outputs.empty()) out.print("{}", outputs);
  s.set_variant(*name, std::move(variant));
}

void run_equiv(Session& s, const Args& args, Output& out) {
  const std::string& name_a = *args.arg(0);
  const std::string& name_b = *args.arg(1);
  EquivOptions o;
  if (auto t = args.option("--iters")) o.iter_limit = parse_u64(*t, "--iters");
  if (auto t = args.option("--nodes")) o.node_limit = parse_u64(*t, "--nodes");
  if (auto t = args.option("--time")) o.time_limit_s = parse_seconds(*t, "--time");
  if (auto t = args.option("--tries")) o.tries = parse_u64(*t, "--tries");
  o.seed = seed_for(s, args);
  o.tolerances = tolerances_for(s, args);
  o.cancel = &s.cancel_flag();
  o.inputs = s.input_plan();
  RuleSet rules = s.rules().enabled_rules();
  if (rules.rules.empty()) fail("no rules are enabled (see `rules list`)");
  const Graph& a = graph_named(s, name_a);
  const Graph& b = graph_named(s, name_b);
  s.cancel_flag() = false;
  EquivResult r;
  {
    SigintCancels guard(s.cancel_flag());
    r = prove_equivalent(a, b, rules, o);
  }
  if (r.proven) {
    out.print("{} = {}: proven after {} {} ({} e-nodes)", name_a, name_b, r.iterations,
              r.iterations == 1 ? "iteration" : "iterations", r.nodes);
    for (size_t k = 0; k < r.proofs.size(); ++k) {
      out.print("output {} ({} = {}), {} steps:", k, a.outputs[r.pairs[k].first],
                b.outputs[r.pairs[k].second], r.proofs[k].steps.size());
      out.write(r.proofs[k].str());
    }
    return;
  }
  out.print("{} = {}: not proven within limits ({} after {} iterations, {} e-nodes)", name_a,
            name_b, r.stopped, r.iterations, r.nodes);
  if (r.counterexample_seed)
    out.print("counterexample on the reference: seed {}: {}", *r.counterexample_seed,
              r.counterexample);
  else
    out.print("no counterexample on the reference in {} seeded inputs (seeds {}-{}{})", r.tried,
              o.seed, o.seed + r.tried - 1,
              r.undefined ? fmt::format(", {} skipped as undefined", r.undefined) : "");
}

}  // namespace

void register_variant_commands(CommandRegistry& r) {
  r.add(
      {.name = "variant",
       .options = {{"--from", "", "take the current graph (edited after `egraph`) instead"}},
       .summary = "Make a hand-written graph a variant of the original.",
       .help = "Hand-written variants compare like extracted ones; `equiv` proves them equal.",
       .actions = {{"add",
                    {{"NAME", Completion::VariantName}, {"FILE", Completion::FilePath, true}},
                    "Loads a .rtg, .json or .onnx graph and keeps it as the variant NAME after\n"
                    "checking that it has the original's inputs (names and types, in order) and\n"
                    "an output for each of the original's outputs, of its type: matched by name,\n"
                    "then by value (an e-graph of both graphs), then by position. Its other\n"
                    "outputs (exposed intermediates) are extra: checked against the reference on\n"
                    "every backend, and between variants that expose the same value\n"
                    "(docs/compare.md). With --from instead of FILE it takes the current graph,\n"
                    "edited with `def` after `egraph`, as the variant of the e-graph's start\n"
                    "graph, which becomes the current graph again.",
                    add_variant}}});
  r.add({.name = "equiv",
         .args = {{"A", Completion::VariantName}, {"B", Completion::VariantName}},
         .options = {{"--iters", "N", "stop after N iterations (default 30)"},
                     {"--nodes", "N", "stop once the e-graph has N e-nodes (default 10000)"},
                     {"--time", "S", "stop after S seconds (default 5)"},
                     {"--tries", "K", "seeded inputs to try for a counterexample (default 20)"},
                     {"--seed", "S", "the first seed of the counterexample search"},
                     {"--atol", "A", "absolute tolerance of the counterexample search"},
                     {"--rtol", "R", "relative tolerance of the counterexample search"}},
         .summary = "Prove two graphs equal with the rules, or find a counterexample.",
         .help =
             "Puts A and B (`original` or variant names, with the same inputs) in one new\n"
             "e-graph and runs the enabled rules until each output of A is in the class of the\n"
             "output of B it matches, or a limit is hit; the graph with more outputs is matched\n"
             "as `variant add` matches a variant (its outputs in any order, its extra ones left\n"
             "out). When they meet it prints, per output, the proof: the chain of rewrites from\n"
             "A's term to B's, each step with its rule and rewrite number (#1, ...). Otherwise\n"
             "it says \"not proven within limits\" and runs both on the reference interpreter\n"
             "with seeded inputs, printing the first that makes an output differ (inputs that\n"
             "make an op undefined are skipped). The session's e-graph is left as it was;\n"
             "Ctrl-C stops the rules.",
         .run = run_equiv});
}

}  // namespace retort
