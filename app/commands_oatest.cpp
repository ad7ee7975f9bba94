// `oatest`: OATest (seeds/004) in the workbench. `oatest patterns` lists the optimization
// patterns taken from compilers' own tests, `oatest weave` puts one into the current (or a
// generated) graph, `oatest trigger` measures how often the targeted passes fire on a backend
// that reports its optimized graph. docs/techniques.md.
#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "app/commands.h"
#include "app/sigint_cancels.h"
#include "core/base/error.h"
#include "core/campaign/campaign_options.h"
#include "core/campaign/trigger.h"
#include "core/gen/opt_pattern.h"
#include "core/gen/weave.h"
#include "core/graph/graph_dot.h"

namespace retort {

namespace {

// The longest name or pass of the built-in patterns: the width of an aligned column.
size_t widest(std::string OptPattern::*field) {
  size_t width = 0;
  for (const OptPattern& p : builtin_opt_patterns()) width = std::max(width, (p.*field).size());
  return width;
}

void run_patterns(Output& out) {
  size_t name_width = widest(&OptPattern::name), pass_width = widest(&OptPattern::pass);
  for (const OptPattern& p : builtin_opt_patterns()) {
    size_t nodes = p.graph.op_count();
    out.print("{:<{}} {:<{}} {} node{}, removes {} when it fires ({})", p.name, name_width, p.pass,
              pass_width, nodes, nodes == 1 ? "" : "s", fmt::join(p.fires, ", "), p.test);
  }
}

// Weaves into the current graph; with none, into one generated from the seed.
void run_weave(Session& s, const Args& args, Output& out) {
  uint64_t seed = seed_for(s, args);
  Rng rng(seed);
  const OptPattern& pattern =
      args.arg(1) ? get_opt_pattern(*args.arg(1)) : pick_from(rng, builtin_opt_patterns());
  bool generated = !s.has_graph();
  Graph base = generated ? generate_graph(
                               gen_options_from(s, args, CampaignOptions::default_gen(), out), seed)
                         : s.graph();
  WeaveReport report;
  Graph woven = weave_pattern(base, pattern, rng, &report);
  woven.name = base.name + "_" + pattern.name;
  s.start_graph(std::move(woven));
  std::string where = report.point == 0 ? fmt::format("before its {} nodes", base.op_count())
                                        : fmt::format("after {}, node {} of {}",
                                                      node_ref(base.nodes[report.point - 1]),
                                                      report.point, base.op_count());
  out.print("wove {} ({}) into {} {} {}, with seed {}", pattern.name, pattern.pass,
            generated ? "generated graph" : "graph", base.name, where, seed);
  for (const auto& line : report.inputs) out.print("  in   {}", line);
  for (const auto& line : report.outputs) out.print("  out  {}", line);
  if (report.bridge_nodes) out.print("  {} bridge nodes", report.bridge_nodes);
}

void run_trigger(Session& s, const Args& args, Output& out) {
  std::string backend = args.option("--backend").value_or("ort:O3");
  TriggerRateOptions o;
  o.cases = parse_u64(*args.arg(1), "N");
  o.seed = seed_for(s, args);
  o.gen = CampaignOptions::default_gen();
  // Seed graphs the backend runs, unless --for says otherwise: a rejected graph says nothing.
  if (!args.option("--for")) o.gen.op_dtypes = support_for(s, backend, out).supported();
  o.gen = gen_options_from(s, args, o.gen, out);
  std::vector<const OptPattern*> patterns;
  if (auto p = args.option("--pattern"))
    patterns.push_back(&get_opt_pattern(*p));
  else
    for (const OptPattern& p : builtin_opt_patterns()) patterns.push_back(&p);

  o.progress = [&](size_t done) { out.progress("trigger cases", done, o.cases); };
  s.cancel_flag().store(false);
  SigintCancels guard(s.cancel_flag());
  o.cancel = &s.cancel_flag();
  TriggerRates r = trigger_rates(s.backends().get(backend), patterns, o);

  size_t name_width = widest(&OptPattern::name);
  auto row = [&](const std::string& name, const TriggerTally& t) {
    out.print("{:<{}} {:>5} of {:>5} fired ({:6.2f}%){}", name, name_width, t.fired, t.known(),
              t.rate(), t.unknown ? fmt::format(", {} unknown", t.unknown) : "");
  };
  out.print("{} cases on {} (seed {}){}", r.cases, backend, o.seed,
            r.cases < o.cases ? ", stopped by Ctrl-C" : "");
  for (const auto& [name, t] : r.by_pattern) row(name, t);
  row("all", r.total);
  if (r.total.unknown) out.print("first unknown: {}", r.total.first_unknown);
}

}  // namespace

void register_oatest_commands(CommandRegistry& r) {
  std::vector<OptionSpec> options = gen_option_specs();
  options.push_back({"--seed", "S", "the seed (default: the session seed)"});
  options.push_back({"--backend", "B", "trigger: the backend to optimize (default ort:O3)",
                     Completion::BackendName});
  options.push_back({"--pattern", "P", "trigger: only this pattern (default: each in turn)"});
  std::vector<std::string> pattern_names;
  for (const OptPattern& p : builtin_opt_patterns()) pattern_names.push_back(p.name);
  r.add({.name = "oatest",
         .options = options,
         .summary = "OATest's optimization patterns: list, weave into a graph, measure triggering.",
         .help = "`fuzz --strategy oatest` runs the same weaving as a campaign.\n"
                 "See docs/techniques.md.",
         .actions = {
             {"patterns",
              {},
              "Lists the patterns taken from compilers' optimizer tests, each with the pass it\n"
              "targets.",
              [](Session&, const Args&, Output& out) { run_patterns(out); }},
             {"weave",
              {{"PATTERN", Completion::None, true, false, pattern_names}},
              "Puts one (default: drawn) into the current graph at a random point, or into a\n"
              "generated graph when there is none: each pattern input takes a value of the\n"
              "same type, else one of the same dtype and rank the pattern still types with,\n"
              "else a value bridged by reshape, pad or slice and cast; each output replaces a\n"
              "same-typed input of a later node, else it is a graph output. The woven graph\n"
              "becomes the current graph.",
              run_weave},
             {"trigger",
              {{"N"}},
              "Weaves N patterns (each in turn) into generated graphs and counts how often the\n"
              "backend's optimizer removed what the targeted pass removes.",
              run_trigger}}});
}

}  // namespace retort
