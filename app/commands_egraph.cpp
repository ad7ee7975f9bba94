// Commands on the session's e-graph: build it, list and toggle rules, match, apply, run the
// rules, extract variants, explain them, undo and redo. The work is done by Session.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "app/command_args.h"
#include "app/commands.h"
#include "app/sigint_cancels.h"
#include "core/base/error.h"
#include "core/base/suggest.h"
#include "core/base/terminal_text.h"
#include "core/rules/ematch.h"

namespace retort {

namespace {

// "apply RULE #2" as typed, for undo's messages.
std::string label_of(std::string_view command, const Args& args) {
  std::string label(command);
  for (const auto& p : args.positional) label += " " + p;
  for (const auto& [name, value] : args.options)
    label += value.empty() ? " " + name : fmt::format(" {} {}", name, value);
  return label;
}

void print_summary(const EGraphWork& w, Output& out) {
  out.print("e-graph: {} e-classes, {} e-nodes, {} roots ({}), {} rewrites", w.eg.class_count(),
            w.eg.node_count(), w.eg.term(w.meta.root).children.size(),
            fmt::join(w.meta.output_names, ", "), w.trace.steps.size());
}

void run_egraph(Session& s, const Args&, Output& out) {
  print_summary(s.build_egraph(), out);
}

// A session file names its rule sets and their origins, and holds their text.
void list_rules(const RuleBook& book, Output& out) {
  for (const auto& set : book.sets()) {
    out.print("{} ({}):", terminal_name(set.name), terminal_name(set.origin));
    for (size_t i = set.first; i < set.first + set.count; ++i) {
      const Rule& r = book.all().rules[i];
      out.print("  [{}] {}  {}", book.enabled(i) ? "x" : " ", terminal_name(r.name),
                terminal_name(r.str()));
    }
  }
}

void load_rules(Session& s, const Args& args, Output& out) {
  const LoadedRuleSet& set = s.rules().load_file(*args.arg(1));
  out.print("loaded rule set {}: {} rules", terminal_name(set.name), set.count);
}

// `rules enable NAME` and `rules disable NAME`.
void enable_rules(Session& s, const Args& args, Output& out) {
  const std::string& action = *args.arg(0);
  s.rules().set_enabled(*args.arg(1), action == "enable");
  out.print("{}d {}", action, *args.arg(1));
}

void run_match(Session& s, const Args& args, Output& out) {
  const EGraphWork& w = s.egraph();
  std::vector<const Rule*> rules;
  if (const std::string* name = args.arg(0)) {
    rules.push_back(&s.rules().rule(*name));
  } else {
    for (size_t i = 0; i < s.rules().all().rules.size(); ++i)
      if (s.rules().enabled(i)) rules.push_back(&s.rules().all().rules[i]);
  }
  for (const Rule* r : rules) {
    std::vector<Match> matches = s.find_matches(*r);
    out.print("{}: {} {}", r->name, matches.size(), matches.size() == 1 ? "match" : "matches");
    if (!matches.empty()) out.write(match_listing(w.eg, *r, matches));
  }
}

void run_apply(Session& s, const Args& args, Output& out) {
  const std::string& rule = *args.arg(0);
  size_t k = args.arg(1) ? parse_number_from_1(*args.arg(1), "match") : 1;
  size_t steps_before = s.has_egraph() ? s.egraph().trace.steps.size() : 0;
  ApplyResult r = s.apply(rule, k, label_of("apply", args));
  const EGraphWork& w = s.egraph();
  out.print("{} match #{}: {}{}", rule, k, apply_outcome_name(r.outcome),
            r.reason.empty() ? "" : ": " + r.reason);
  for (size_t i = steps_before; i < w.trace.steps.size(); ++i)
    out.line(step_str(w.eg, s.rules().all(), w.trace.steps[i]));
  print_summary(w, out);
}

size_t parse_count(const Args& args, const std::string& option, size_t fallback) {
  auto text = args.option(option);
  return text ? parse_u64(*text, option) : fallback;
}

// The runner's report without its timings, so that transcripts of a session are the same in
// every run.
void report_run(const Session& s, const RunReport& report, Output& out) {
  for (const IterationReport& it : report.iterations) {
    out.print("iteration {}: applied {}, rebuild merges {}, {} e-nodes, {} e-classes", it.iteration,
              it.applied, it.rebuild_merges, it.nodes, it.classes);
    for (const RuleReport& r : it.rules) {
      if (r.matches == 0 && !r.banned) continue;
      out.print("  {:<28} matches {:>4}  applied {:>4}  unchanged {:>4}{}{}{}{}", r.rule, r.matches,
                r.applied, r.unchanged, r.skipped ? fmt::format("  skipped {}", r.skipped) : "",
                r.rejected ? fmt::format("  rejected {}", r.rejected) : "",
                r.capped ? fmt::format("  capped {}", r.capped) : "", r.banned ? "  banned" : "");
    }
  }
  out.print("stopped: {} after {} iteration(s)", stop_reason_name(report.stop),
            report.iterations.size());
  print_summary(s.egraph(), out);
}

void run_step(Session& s, const Args& args, Output& out) {
  RunnerOptions options;
  options.iter_limit = args.arg(0) ? parse_u64(*args.arg(0), "the iteration count N") : 1;
  options.scheduler = SchedulerKind::Simple;
  report_run(s, s.run_rules(options, label_of("step", args)), out);
}

void run_saturate(Session& s, const Args& args, Output& out) {
  RunnerOptions options;
  options.iter_limit = parse_count(args, "--iters", options.iter_limit);
  options.node_limit = parse_count(args, "--nodes", options.node_limit);
  if (auto text = args.option("--time"))
    options.time_limit_seconds = parse_seconds(*text, "--time");
  if (auto text = args.option("--scheduler")) {
    auto kind = parse_scheduler(*text);
    if (!kind) fail_unknown("scheduler", *text, {"simple", "backoff"});
    options.scheduler = *kind;
  }
  SigintCancels guard(s.cancel_flag());
  report_run(s, s.run_rules(options, label_of("saturate", args)), out);
}

std::map<std::string, double> parse_costs(const std::string& text) {
  std::map<std::string, double> costs;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = std::min(text.find(',', start), text.size());
    std::string item = text.substr(start, comma - start);
    size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0) fail("--cost wants op=N,..., not '{}'", item);
    costs[item.substr(0, eq)] = static_cast<double>(parse_u64(item.substr(eq + 1), "a cost"));
    start = comma + 1;
  }
  return costs;
}

void run_extract(Session& s, const Args& args, Output& out) {
  ExtractOptions options;
  auto mode = parse_extract_mode(*args.arg(0));
  if (!mode) fail_unknown("extraction mode", *args.arg(0), {"min", "max", "random", "cost"});
  options.mode = *mode;
  options.seed = s.seed();
  if (auto text = args.option("--seed")) options.seed = parse_u64(*text, "--seed");
  if (auto text = args.option("--cost")) {
    if (options.mode != ExtractMode::Cost) fail("--cost goes with `extract cost`");
    options.op_costs = parse_costs(*text);
  }
  std::string name;
  if (const std::string* as = args.arg(1)) {
    if (*as != "as" || !args.arg(2)) fail("expected `as NAME` after the mode, not '{}'", *as);
    name = *args.arg(2);
  }
  const std::string& made = s.extract_variant(options, name, label_of("extract", args));
  const Variant& v = s.variant_info(made);
  GraphSize original = s.original_size();
  out.print("{}: {} ops, depth {} (original: {} ops, depth {}), rewrites used: {}", made, v.ops,
            v.depth, original.ops, original.depth, variant_steps_str(v));
}

void drop_variant(Session& s, const Args& args, Output& out) {
  s.drop_variant(*args.arg(1));
  out.print("dropped variant {}", *args.arg(1));
}

void list_variants(Session& s, const Args&, Output& out) {
  if (s.variants().empty()) {
    out.line("no variants yet (make some with `extract`)");
    return;
  }
  // A session file or a finding names its variants.
  size_t width = 4;
  for (const auto& [name, v] : s.variants()) width = std::max(width, terminal_name(name).size());
  out.print("{:<{}}  {:>5}  {:>5}  rewrites used", "name", width, "ops", "depth");
  for (const auto& [name, v] : s.variants()) {
    std::string steps = variant_steps_str(v);
    out.print("{:<{}}  {:>5}  {:>5}  {}", terminal_name(name), width, v.ops, v.depth, steps);
  }
}

void run_explain(Session& s, const Args& args, Output& out) {
  const std::string& name = *args.arg(0);
  std::vector<Explanation> proofs = s.explain_variant(name);
  const auto& outputs = s.egraph().meta.output_names;
  for (size_t i = 0; i < proofs.size(); ++i) {
    out.print("output {}:", i < outputs.size() ? outputs[i] : fmt::format("#{}", i + 1));
    out.write(proofs[i].str());
  }
}

void run_undo(Session& s, const Args&, Output& out) {
  out.print("undid {}", s.undo());
  if (s.has_egraph()) print_summary(s.egraph(), out);
}

void run_redo(Session& s, const Args&, Output& out) {
  out.print("redid {}", s.redo());
  if (s.has_egraph()) print_summary(s.egraph(), out);
}

}  // namespace

void register_egraph_commands(CommandRegistry& r) {
  r.add({.name = "egraph",
         .summary = "Build the e-graph of the current graph.",
         .help = "Starts a fresh e-graph and rewrite trace from the current graph and prints its\n"
                 "size: e-classes, e-nodes and roots (the graph's outputs).",
         .run = run_egraph});
  r.add(
      {.name = "rules",
       .summary = "List, load, enable or disable rewrite rules.",
       .help = "The built-in polyjuice set is loaded at start; rule files are described in\n"
               "docs/rules.md.",
       .actions =
           {{"list",
             {},
             "Every loaded rule, [x] when enabled.",
             [](Session& s, const Args&, Output& out) { list_rules(s.rules(), out); }},
            {"load",
             {{"FILE", Completion::FilePath}},
             "Loads a rule file as a set named after the file.",
             load_rules},
            {"enable", {{"NAME", Completion::RuleName}}, "Enables a set or a rule.", enable_rules},
            {"disable",
             {{"NAME", Completion::RuleName}},
             "Disables a set or a rule.",
             enable_rules}},
       .default_action = "list"});
  r.add({.name = "match",
         .args = {{"RULE", Completion::RuleName, true}},
         .summary = "List the matches of a rule (or of every enabled rule).",
         .help =
             "Each match is numbered from #1 and shows the matched e-class, the rule's\n"
             "variables bound to e-class ids (`render egraph --around eN` draws one), and the\n"
             "sub-term it would rewrite, cut to a line; `apply RULE #K` applies match K. A rule\n"
             "whose left side is a bare ?x (split-of-concat) matches every value it may wrap.",
         .run = run_match});
  r.add({.name = "apply",
         .args = {{"RULE", Completion::RuleName}, {"#K", Completion::None, true}},
         .summary = "Apply one match of a rule (the first unless #K is given).",
         .help = "Prints the outcome, the rewrite added to the trace and the e-graph's new size.\n"
                 "Rewrites are numbered from #1 in the order applied, as matches are: `render\n"
                 "rewrite N`, `variants` and `explain` use the same numbers.",
         .run = run_apply});
  r.add({.name = "step",
         .args = {{"N", Completion::None, true}},
         .summary = "Run N iterations (default 1) of every enabled rule.",
         .help = "Each iteration searches every enabled rule, applies the matches and rebuilds;\n"
                 "the report lists matches and outcomes per rule.",
         .run = run_step});
  r.add({.name = "saturate",
         .options = {{"--iters", "N", "stop after N iterations (default 30)"},
                     {"--nodes", "N", "stop once the e-graph has N e-nodes (default 10000)"},
                     {"--time", "S", "stop after S seconds (default 5)"},
                     {"--scheduler", "KIND", "simple or backoff (default)"}},
         .summary = "Run the enabled rules until saturation or a limit.",
         .help = "Prints a report per iteration and why the run stopped. Ctrl-C stops the run\n"
                 "early; what was done until then is kept.",
         .run = run_saturate});
  r.add({.name = "extract",
         .args = {{"MODE", Completion::None, false, false, {"min", "max", "random", "cost"}},
                  {"as", Completion::None, true, false, {"as"}},
                  {"NAME", Completion::VariantName, true}},
         .options = {{"--seed", "S", "seed of random extraction (default: the session seed)"},
                     {"--cost", "OP=N,...", "op costs for cost extraction (others cost 1)"}},
         .summary = "Extract a variant from the e-graph: min, max, random or cost.",
         .help = "The variant is named NAME, or after the mode (min, max, cost, random_1, ...).\n"
                 "Prints its op count and depth next to the original's.",
         .run = run_extract});
  r.add({.name = "variants",
         .summary = "List the variants: ops, depth and the rewrites (#1, #2, ...) they depend on.",
         .actions = {{"list",
                      {},
                      "Each variant's ops, depth and the rewrites it depends on (numbered from #1 "
                      "as `apply` prints them).",
                      list_variants},
                     {"drop",
                      {{"NAME", Completion::VariantName}},
                      "Removes the variant NAME.",
                      drop_variant}},
         .default_action = "list"});
  r.add({.name = "explain",
         .args = {{"NAME", Completion::VariantName}},
         .summary = "Prove a variant equal to the original, output by output.",
         .help = "For each output, the chain of rewrites from the original term to the variant's.",
         .run = run_explain});
  r.add({.name = "undo",
         .summary = "Undo the last e-graph command.",
         .help = "egraph, apply, step, saturate and extract can be undone; the e-graph is rebuilt\n"
                 "by replaying the rewrite trace.",
         .run = run_undo});
  r.add({.name = "redo", .summary = "Redo the last undone e-graph command.", .run = run_redo});
}

}  // namespace retort
