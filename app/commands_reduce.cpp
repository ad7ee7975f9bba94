// Commands that narrow a failure down: bisect (the rewrite that brings it in) and reduce (the
// smallest graph that still shows it).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "app/commands.h"
#include "app/sigint_cancels.h"
#include "core/base/error.h"
#include "core/compare/equiv.h"
#include "core/compare/inspect.h"
#include "core/compare/reduce.h"
#include "core/compare/report_format.h"
#include "core/io/rtg.h"
#include "core/session/bisect.h"
#include "core/tensor/number_text.h"

namespace retort {

namespace {

OptionSpec seed_option() {
  return {"--seed", "S", "draw the inputs with seed S instead of the session seed"};
}

void run_bisect(Session& s, const Args& args, Output& out) {
  auto backend = args.option("--backend");
  if (!backend) fail("bisect {} needs --backend NAME: the backend it fails on", *args.arg(0));
  BisectOptions options{.variant = *args.arg(0),
                        .backend = *backend,
                        .seed = seed_for(s, args),
                        .runs = 1,
                        .tolerances = tolerances_for(s, args),
                        .inputs = s.input_plan()};
  if (auto runs = args.option("--runs")) options.runs = parse_u64(*runs, "--runs");
  if (options.runs == 0) fail("--runs must be at least 1");
  VariantBisection b = bisect_variant(s, options);
  const BisectResult& r = b.result;
  out.print("bisect {} on {}: {} states from the original to the variant, {} checked",
            options.variant, options.backend, b.length, r.tried);
  out.print("state {} passes, state {} fails: {}", r.pass_state, r.pass_state + 1, b.step_text);
  out.print("failure: {}", b.signature.str());
  out.print("signature: {}", b.signature.key());
  s.set_variant("bisect_pass", r.passing);
  s.set_variant("bisect_fail", r.failing);
  out.print(
      "kept bisect_pass ({} ops) and bisect_fail ({} ops), one rewrite apart: "
      "`compare bisect_pass bisect_fail --backends ref,{}`",
      r.passing.op_count(), r.failing.op_count(), options.backend);
}

const Graph& report_graph(const CompareReport& report, const std::string& name) {
  for (size_t g = 0; g < report.graphs.size(); ++g)
    if (report.graphs[g] == name) return report.graph_defs[g];
  fail("the compare report has no graph '{}'", name);
}

std::string graph_summary(const Graph& g) {
  return fmt::format("{} {}, {} {}, {} {}", g.op_count(), g.op_count() == 1 ? "node" : "nodes",
                     g.inputs.size(), g.inputs.size() == 1 ? "input" : "inputs", g.constants.size(),
                     g.constants.size() == 1 ? "constant" : "constants");
}

bool same_inputs(const Graph& a, const Graph& b) {
  if (a.inputs.size() != b.inputs.size()) return false;
  for (size_t i = 0; i < a.inputs.size(); ++i)
    if (a.inputs[i].name != b.inputs[i].name || a.inputs[i].type != b.inputs[i].type) return false;
  return true;
}

// Variants made from the graph before the reduction whose inputs or outputs no longer fit the
// reduced one: `compare` would refuse them, so they go, with a line saying so.
void drop_stale_variants(Session& s, Output& out) {
  std::vector<std::string> stale;
  for (const auto& name : s.variant_names()) {
    try {
      check_variant_interface(s.graph(), s.variant(name), name);
    } catch (const Error&) {
      stale.push_back(name);
    }
  }
  for (const auto& name : stale) s.drop_variant(name);
  if (!stale.empty())
    out.print("dropped {} {}: made from the graph before the reduction, {} no longer fit it",
              stale.size() == 1 ? "variant" : "variants", fmt::join(stale, ", "),
              stale.size() == 1 ? "its inputs or outputs" : "their inputs or outputs");
}

// The reduced failure as the session's graph (and variant), and its compare report; returns the
// number of its finding in that report.
size_t install_reduced(Session& s, const ReduceResult& r, const ReduceTarget& target, Output& out) {
  const ReduceCase& c = r.smallest;
  std::vector<CompareGraph> graphs;
  if (c.b) {
    s.set_graph(*c.b);
    s.set_variant("reduced", c.a);
    graphs = {{"original", &s.graph()}, {"reduced", &s.variant("reduced")}};
  } else {
    s.set_graph(c.a);
    graphs = {{"original", &s.graph()}};
  }
  out.print("the current graph is now the reduced {}{}",
            c.b ? "original: " : "graph: ", graph_summary(s.graph()));
  if (c.b) out.print("variant reduced: {}", graph_summary(c.a));
  drop_stale_variants(s, out);
  if (r.largest_pass && same_inputs(r.largest_pass->a, s.graph()) &&
      (!c.b || print_rtg(*r.largest_pass->b) == print_rtg(*c.b))) {
    s.set_variant("reduce_pass", r.largest_pass->a);
    out.print("variant reduce_pass: the largest passing graph one change away ({})",
              graph_summary(r.largest_pass->a));
  } else {
    out.print("no passing graph one change away with the same inputs to keep");
  }
  std::vector<std::string> names{"ref"};
  if (target.backend_b != "ref" && target.backend_b != target.backend_a)
    names.push_back(target.backend_b);
  names.push_back(target.backend_a);
  std::vector<Backend*> backends;
  for (const auto& n : names) backends.push_back(&s.backends().get(n));
  CompareReport report =
      run_compare(graphs, backends,
                  {.seed = target.seed, .runs = 1, .tolerances = target.tolerances}, target.inputs);
  sign_findings(report, backends);
  size_t number = 0;
  for (size_t i = 1; i <= report.bug_count(); ++i) {
    auto sig = FailureSignature::parse(report.bug(i)->signature);
    if (sig && sig->family == target.signature.family && sig->oracle == target.signature.oracle &&
        sig->verdict == target.signature.verdict && sig->op == target.signature.op &&
        sig->dtype == target.signature.dtype && report.bug(i)->backend_a == target.backend_a) {
      number = i;
      break;
    }
  }
  out.write(compare_report_text(report));
  s.set_compare_report(std::move(report));
  return number;
}

// Which finding `reduce` takes without N, and why. An equivalence finding is a pair that differs
// by rewrites: reduced as a pair it keeps the rewrite that makes the two differ, where a
// reference finding of the variant alone loses it. So the equivalence finding of the variant the
// user made last (the one the graph pane shows) comes first, then any equivalence finding.
struct FindingChoice {
  size_t number = 1;
  std::string why;
};

FindingChoice choose_finding(const Session& s, const CompareReport& report) {
  if (report.bug_count() == 0) fail("the last compare has no findings to reduce");
  std::optional<size_t> first_pair;
  for (size_t n = 1; n <= report.bug_count(); ++n) {
    const Finding& f = *report.bug(n);
    if (f.oracle != Oracle::Equivalence) continue;
    if (f.graph_a == s.newest_variant())
      return {n, fmt::format("'{}' is the variant made last, and its pair with '{}' keeps the "
                             "rewrite that makes the two differ",
                             f.graph_a, f.graph_b)};
    if (!first_pair) first_pair = n;
  }
  if (first_pair)
    return {*first_pair,
            "the first equivalence finding: reduced as a pair, it keeps the rewrite that makes the "
            "two graphs differ"};
  return {1, "the first finding"};
}

void run_reduce(Session& s, const Args& args, Output& out) {
  ReduceOptions options;
  if (auto t = args.option("--time")) options.time_limit_s = parse_seconds(*t, "--time");
  const CompareReport* report = s.compare_report();
  if (!report) fail("no compare results yet: run `compare` first");
  FindingChoice choice;
  if (args.arg(0))
    choice = {parse_u64(*args.arg(0), "the finding number"), "as asked"};
  else
    choice = choose_finding(s, *report);
  size_t n = choice.number;
  const Finding* found = report->bug(n);
  if (!found)
    fail("the last compare has {} findings; there is no #{} to reduce", report->bug_count(), n);
  const Finding f = *found;
  out.print("reduce takes #{} ({} finding of {} on {}): {}{}", n, oracle_name(f.oracle),
            f.backend_a, f.graph_a, choice.why,
            args.arg(0) || report->bug_count() == 1 ? "" : "; `reduce N` takes finding N");
  ReduceCase start;
  start.a = report_graph(*report, f.graph_a);
  if (f.oracle == Oracle::Equivalence) {
    start.b = report_graph(*report, f.graph_b);
    std::vector<ValuePair> pairs = s.has_egraph()
                                       ? pair_by_classes(s.egraph().eg, start.a, *start.b)
                                       : pair_by_names(start.a, *start.b);
    for (const auto& p : pairs) start.pairs.emplace(p.a, p.b);
  }
  std::optional<FailureSignature> signature = FailureSignature::parse(f.signature);
  if (!signature) {
    std::vector<Backend*> backends;
    for (const auto& b : report->backends) backends.push_back(&s.backends().get(b));
    signature = SignatureFinder(*report, backends).of(f);
  }
  ReduceTarget target{.oracle = f.oracle,
                      .backend_a = f.backend_a,
                      .backend_b = f.backend_b,
                      .signature = *signature,
                      .seed = f.seed,
                      .tolerances = report->tolerances,
                      .inputs = report->inputs};
  options.cancel = &s.cancel_flag();
  options.progress = [&](const ReduceProgress& p) {
    out.progress(fmt::format("checks, {} {} left", p.nodes, p.nodes == 1 ? "node" : "nodes"),
                 p.checks);
    out.print("  {} {} after {} checks ({:.1f} s): {}", p.nodes, p.nodes == 1 ? "node" : "nodes",
              p.checks, p.seconds, p.change);
  };
  out.print("reduce #{}: {} on {} (seed {}), {} nodes", n, signature->str(), f.graph_a, f.seed,
            start.nodes());
  s.cancel_flag() = false;
  ReduceResult r;
  {
    SigintCancels guard(s.cancel_flag());
    r = reduce_case(
        start, target, [&](const std::string& b) -> Backend& { return s.backends().get(b); },
        options);
  }
  out.print("reduced {} -> {} nodes in {} checks{}", r.start_nodes, r.smallest.nodes(), r.checks,
            r.stopped.empty() ? "; no single change keeps the failure any more"
                              : fmt::format("; stopped ({}): the smallest so far is kept, `reduce` "
                                            "again continues from it",
                                            r.stopped));
  size_t number = install_reduced(s, r, target, out);
  if (number)
    out.print("the reduced failure is finding #{}: `export repro DIR{}`", number,
              number == 1 ? "" : fmt::format(" --finding {}", number));
}

}  // namespace

void register_reduce_commands(CommandRegistry& r) {
  r.add({.name = "bisect",
         .args = {{"VARIANT", Completion::VariantName}},
         .options = {{"--backend", "NAME", "the backend the variant fails on (required)",
                      Completion::BackendName},
                     seed_option(),
                     {"--runs", "N", "check each state with N seeds S, S+1, ... (default 1)"},
                     {"--atol", "A", "absolute tolerance for every float dtype (this run only)"},
                     {"--rtol", "R", "relative tolerance for every float dtype (this run only)"},
                     {"--ulps", "U",
                      "also match within U units in the last place of each float dtype"}},
         .summary = "Find the rewrite that makes a variant fail on a backend.",
         .help =
             "Walks the rewrite trace from the original toward VARIANT (an extracted variant):\n"
             "state t replays the first t trace steps and extracts the term closest to the\n"
             "variant, so state 0 is the original and the last state the variant. A state fails\n"
             "when comparing it with the original on ref and NAME shows the variant's failure\n"
             "(the same signature, see `help compare`). Binary search finds a passing state\n"
             "next to a failing one; the trace step between them is the rewrite that brings the\n"
             "failure in, printed with its rule and match. The two graphs, one rewrite apart,\n"
             "are kept as the variants bisect_pass and bisect_fail.",
         .run = run_bisect});
  r.add({.name = "reduce",
         .args = {{"N", Completion::None, true}},
         .options = {{"--time", "S", "stop after S seconds, keeping the smallest so far"}},
         .summary = "Shrink the graph of a finding while it fails the same way.",
         .help =
             "Takes finding N (numbered as `compare` prints them) of the last compare; without\n"
             "N, the equivalence finding of the variant made last, else the first equivalence\n"
             "finding (reduced as a pair, it keeps the rewrite that makes the two differ),\n"
             "else finding 1, and says which and why. It tries one change at a time: an\n"
             "earlier value as the only output, an output dropped, a node removed (its readers\n"
             "read one of its inputs, a graph input or a constant of the same type, or a new\n"
             "input), a constant filled with 0 or 1, an input dimension shrunk to 1 or\n"
             "dropped. A change is kept only when the result still fails with the same\n"
             "signature (backend family, oracle, verdict, op and dtype of the first diverging\n"
             "value) on the same backend, and the reference finds no undefined behaviour. An\n"
             "equivalence finding is reduced as a pair: each change is made to both graphs on\n"
             "values the e-graph proved equal. Prints a line per kept change. Ctrl-C or --time\n"
             "stops it with the smallest graph so far; running `reduce` again continues from\n"
             "there. The result becomes the current graph (and the variant `reduced` for an\n"
             "equivalence finding), the largest passing graph one change away becomes\n"
             "`reduce_pass`, variants that no longer fit the result are dropped (a line names\n"
             "them), and a compare of the result becomes the last report, ready for `inspect`\n"
             "and `export repro`. See docs/compare.md.",
         .run = run_reduce});
}

}  // namespace retort
